// The Model's settings are listed once (model_fields.hpp); the views that iterate the list show every row.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "diff/diffing.hpp"
#include "ropelens/load/model_loader.hpp"
#include "ropelens/model/model_fields.hpp"
#include "ropelens/render/render.hpp"
#include "support.hpp"

using namespace ropelens;

namespace {

struct TwoMembers {
  Field<int> a;
  std::optional<Field<double>> b;
};
struct ThreeMembers {
  Field<int> a;
  std::optional<Field<double>> b;
  std::vector<std::string> c;
};
static_assert(model_fields::member_count<TwoMembers>() == 2);
static_assert(model_fields::member_count<ThreeMembers>() == 3);  // one member more is counted

const char* kYarnConfig = "testdata/configs/qwen/qwen2.5-coder-32b-instruct-historical-yarn.json";

bool has_field(const std::vector<diff_detail::NamedValue>& fields, const std::string& setup, const std::string& name) {
  for (const auto& f : fields)
    if (f.setup == setup && f.field == name) return true;
  return false;
}

}  // namespace

TEST_CASE("every member of the Model and its setups is a row or named as kept elsewhere") {
  CHECK(model_fields::member_count<Model>() ==
        std::tuple_size_v<decltype(kModelFields)> + std::size(kModelMembersElsewhere));
  CHECK(model_fields::rows_in_group(kSetupFields, "yarn") == 6);
}

TEST_CASE("JSON and diff list every row of a YaRN model they show") {
  const Model model = load_model(test::source_path(kYarnConfig)).model;
  REQUIRE(model.setups.size() == 1);
  const RopeSetup& setup = model.setups[0];
  REQUIRE(setup.type == RopeType::yarn);
  const auto document = model_to_json(model);
  const auto fields = diff_detail::normalized_fields(model);

  int rows = 0;
  for_each_field(kModelFields, model, in_json, [&](const auto& row, const auto&) {
    ++rows;
    CHECK(document.contains(std::string(row.name)));
  });
  CHECK(rows == 8);
  for_each_field(kModelFields, model, in_diff, [&](const auto& row, const auto& value) {
    INFO(row.name);
    const bool present = [&] {
      if constexpr (requires { value.has_value(); }) return value.has_value();
      return true;
    }();
    CHECK(has_field(fields, "", std::string(row.name)) == present);
  });
  for_each_setup_field(setup, in_json, [&](const auto& row, const auto&) {
    INFO(row.name);
    const auto& object = row.group.empty() ? document["setups"][0] : document["setups"][0][std::string(row.group)];
    CHECK(object.contains(std::string(row.name)));
  });
  CHECK(document["setups"][0]["yarn"]["beta_fast"]["value"] == 32.0);
  CHECK(has_field(fields, setup.name, "yarn.beta_fast"));
  CHECK(has_field(fields, setup.name, "yarn.truncate"));
  CHECK_FALSE(has_field(fields, setup.name, "longrope.short_factor"));
}

TEST_CASE("field_text writes values as the settings and the log show them") {
  CHECK(field_text(true) == "true");
  CHECK(field_text(1000000.0) == "1000000");
  CHECK(field_text(std::vector<double>(48, 1.0)) == "48 values");
  CHECK(field_text(std::vector<int>{16, 24, 24}) == "[16, 24, 24]");
  CHECK(field_text(Pairing::interleaved) == "interleaved");
}
