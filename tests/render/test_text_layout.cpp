// The renderers' text helpers: XML escaping of hostile text, terminal display widths and wrapping, log-axis
// labels and the Markdown subset of the rule docs.
#include <catch2/catch.hpp>

#include "render/writers/markdown_html.hpp"
#include "render/writers/svg_writer.hpp"
#include "render/writers/terminal_text.hpp"
#include "render/writers/xml_text.hpp"

using namespace ropelens::render_detail;

TEST_CASE("xml_escape: markup escaped, control characters dropped, broken UTF-8 replaced", "[render][xml]") {
  CHECK(xml_escape("a<b>&\"c\"'d'") == "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;");
  CHECK(xml_escape("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;");
  CHECK(xml_escape("bell\x07 esc\x1b[31m nul") == "bell esc[31m nul");
  CHECK(xml_escape(std::string("in\0side", 7)) == "inside");
  CHECK(xml_escape("tab\tnewline\n") == "tab\tnewline\n");
  CHECK(xml_escape("θ° 模型 🙂") == "θ° 模型 🙂");
  CHECK(xml_escape("C1 \xC2\x85 DEL \x7F") == "C1  DEL ");
  CHECK(xml_escape("bad \xFF byte") == "bad \xEF\xBF\xBD byte");
  CHECK(xml_escape("overlong \xC0\xAF") == "overlong \xEF\xBF\xBD\xEF\xBF\xBD");
  CHECK(xml_escape("surrogate \xED\xA0\x80") == "surrogate \xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
  CHECK(xml_escape("cut \xE2\x82") == "cut \xEF\xBF\xBD\xEF\xBF\xBD");
  CHECK(xml_escape("noncharacter \xEF\xBF\xBF") == "noncharacter ");
}

TEST_CASE("display_width counts columns, not bytes", "[render][terminal]") {
  CHECK(display_width("seen°") == 5);
  CHECK(display_width("0–31") == 4);
  CHECK(display_width("模型") == 4);
  CHECK(display_width("\x1b[1m\x1b[91merror\x1b[0m") == 5);
  CHECK(display_width("e\xCC\x81") == 1);  // e + combining acute
  CHECK(display_width(styled("warning", warning_style(), true)) == 7);
  CHECK(styled("warning", warning_style(), false) == "warning");
}

TEST_CASE("wrap: words to the width, hanging indent, long words and prefixes kept whole", "[render][terminal]") {
  CHECK(wrap("keep inputs within 131072 tokens, or raise the scaling", 20, 2) ==
        std::vector<std::string>{"keep inputs within", "  131072 tokens, or", "  raise the scaling"});
  CHECK(wrap("  help: a b", 80, 8) == std::vector<std::string>{"  help: a b"});
  CHECK(wrap("x /a/very/long/path/config.json y", 10, 2) ==
        std::vector<std::string>{"x", "  /a/very/long/path/config.json", "  y"});
  // The path and code stay on the first line even when the line is too narrow for them.
  const std::string head = "path/to/config.json:1:2: CTX201 error";
  CHECK(wrap(head + " at 262144 tokens pairs", 20, 4, head.size()) ==
        std::vector<std::string>{head, "    at 262144 tokens", "    pairs"});
  CHECK(wrapped("θθθ θθθ θθθ", 7, 0) == "θθθ θθθ\nθθθ");
}

TEST_CASE("fit_lines: only lines wider than the window break, at spaces, keeping a row's spacing",
          "[render][terminal]") {
  const std::string rows = "  a    b\n  pair   0.5   0.25  * [2] vs [1], up to ×1.0300\n";
  CHECK(fit_lines(rows, std::nullopt) == rows);  // piped: byte for byte
  CHECK(fit_lines(rows, 80) == rows);
  CHECK(fit_lines(rows, 30) == "  a    b\n  pair   0.5   0.25  * [2] vs\n      [1], up to ×1.0300\n");
  CHECK(fit_lines("x https://example.org/a/very/long/path y", 10) ==
        "x\n    https://example.org/a/very/long/path\n    y");
  CHECK(fit_lines("37–63 (27) tokens", 8) == "37–63\n    (27)\n    tokens");  // never "37–6" / "3"
}

TEST_CASE("hanging: the text wraps in its column, or 2 past the indent when the column is too narrow",
          "[render][terminal]") {
  const std::string prefix = "    vllm           16.00 GiB  ";
  CHECK(hanging(prefix, "32 layers × 131072 tokens × 2048 values", std::nullopt) ==
        prefix + "32 layers × 131072 tokens × 2048 values");
  CHECK(hanging(prefix, "32 layers × 131072 tokens × 2048 values", 60) ==
        prefix + "32 layers × 131072 tokens ×\n" + std::string(30, ' ') + "2048 values");
  CHECK(hanging("  name: ", "a b c d e f", 30) == "  name: a b c d e f");
  CHECK(hanging("  a long name of a row: ", "one two three", 30) == "  a long name of a row: one\n    two three");
}

TEST_CASE("log axis labels", "[render][svg]") {
  CHECK(log_tick_label(1) == "1");
  CHECK(log_tick_label(10) == "10");
  CHECK(log_tick_label(1000) == "1k");
  CHECK(log_tick_label(100000) == "100k");
  CHECK(log_tick_label(1e6) == "1M");
  CHECK(log_tick_label(1e10) == "10G");
  CHECK(log_tick_label(0.1) == "0.1");
  CHECK(log_tick_label(1e-4) == "1e-4");
}

TEST_CASE("markdown_to_html: the subset the rule docs use, escaped", "[render][markdown]") {
  const std::string doc =
      "# CTX201 unseen-angles\n\nFirst `a<b>` line\ncontinued.\n\n## Example\n```json\n{\"x\": 1 < 2}\n```\n"
      "- one\n  more\n- two\n";
  CHECK(markdown_to_html(doc, 2) ==
        "<h3>CTX201 unseen-angles</h3>\n<p>First <code>a&lt;b&gt;</code> line continued.</p>\n<h4>Example</h4>\n"
        "<pre><code>{&quot;x&quot;: 1 &lt; 2}\n</code></pre>\n<ul>\n<li>one more</li>\n<li>two</li>\n</ul>\n");
}
