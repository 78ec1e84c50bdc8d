// Precompiled for the test suite (cmake/BuildSpeed.cmake): Catch2 and the core's heavy headers.
#pragma once
#include <catch2/catch.hpp>

#include "core.hpp"
