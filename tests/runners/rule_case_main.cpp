// One CTest test per rule case folder: `ropelens_rule_case testdata/rules/<CODE>/<case>`.
#include <iostream>

#include "rules/rule_case.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: ropelens_rule_case testdata/rules/<CODE>/<case>\n";
    return 2;
  }
  auto rule_case = ropelens::test::load_rule_case(argv[1]);
  std::string failures = ropelens::test::verify_rule_case(rule_case);
  if (failures.empty()) return 0;
  std::cerr << failures;
  return 1;
}
