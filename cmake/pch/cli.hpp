// Precompiled for ropelens_cli (cmake/BuildSpeed.cmake): CLI11 and the core's heavy headers.
#pragma once
#include <CLI/CLI.hpp>

#include "core.hpp"
