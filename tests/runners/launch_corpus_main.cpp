// The launch corpus test: `ropelens_launch_corpus testdata/launch/corpus` prints the verdict table (case, expected,
// got) and the summary, and fails on any mismatch (tests/launch/launch_corpus.hpp).
#include <iostream>

#include "launch/launch_corpus.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: ropelens_launch_corpus CORPUS_DIR (testdata/launch/corpus)\n";
    return 2;
  }
  try {
    return ropelens::test::report_corpus(argv[1], std::cout) == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
}
