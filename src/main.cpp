#include "cli/run.hpp"

int main(int argc, char** argv) { return ropelens::cli::run(argc, argv); }
