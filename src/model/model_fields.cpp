#include "ropelens/model/model_fields.hpp"

#include <fmt/format.h>

namespace ropelens {

std::string field_text(const std::string& value) { return value; }
std::string field_text(bool value) { return value ? "true" : "false"; }
std::string field_text(Pairing value) { return std::string(to_string(value)); }
std::string field_text(PositionScheme value) { return std::string(to_string(value)); }
std::string field_text(int value) { return fmt::format("{}", value); }
std::string field_text(std::int64_t value) { return fmt::format("{}", value); }
std::string field_text(double value) { return fmt::format("{}", value); }
std::string field_text(const std::vector<double>& values) { return fmt::format("{} values", values.size()); }
std::string field_text(const std::vector<int>& values) { return fmt::format("[{}]", fmt::join(values, ", ")); }

}  // namespace ropelens
