// The program's entry point, apart from the command table so that main.cpp does not compile CLI11.
#pragma once

namespace ropelens::cli {

int run(int argc, char** argv);

}  // namespace ropelens::cli
