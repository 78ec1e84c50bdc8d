// The WebAssembly module's own tests, in node: each command's document equals the command line's for the same input,
// byte for byte, and the module's own interface (options, errors, a file read in parts) does what the page needs.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { spawnSync } = require("node:child_process");
const { cli, loadModule, fileSource, runCli, cliVersion, read, runOnConfig, documentOf } = require("./support.js");

const QWEN3 = "testdata/configs/qwen/qwen3-8b.json";
const GGUF = "testdata/gguf/llama-3.1-rope-freqs.gguf";

test("about names the command line's release and the engines --stack takes", async () => {
  const about = JSON.parse(documentOf(await (await loadModule()).run("about")));
  assert.equal(`ropelens ${about.version}`, cliVersion().split(" (")[0].trim());
  assert.ok(about.engines.includes("vllm") && about.engines.includes("llama.cpp"), about.engines.join(","));
  assert.ok(!about.engines.includes("all"));
});

test("check of Qwen3-8B at 131072 tokens: CTX201 with pairs 41-63, as the seed article's table has them", async () => {
  const checked = JSON.parse(documentOf(await runOnConfig(QWEN3, "check", { target: "128k" })));
  const ctx201 = checked.files[0].diagnostics.find((d) => d.code === "CTX201");
  assert.ok(ctx201, "no CTX201");
  assert.deepEqual(ctx201.facts.out_of_range_pairs, Array.from({ length: 23 }, (_, i) => 41 + i));
  assert.equal(ctx201.facts.trained_tokens, 40960);
  assert.equal(checked.files[0].target, 131072);
});

test("check, table, inspect, suggest, fit and the engine views equal the command line's JSON", async () => {
  const cases = [
    ["check", { target: "131072" }, ["check", QWEN3, "--target", "131072", "--format", "json"]],
    ["check", { target: "131072", stack: "vllm@0.8.5,llama.cpp", memory: "24GiB", tp: 2, kv_dtype: "fp8" },
      ["check", QWEN3, "--target", "131072", "--stack", "vllm@0.8.5,llama.cpp", "--memory", "24GiB", "--tp", "2",
        "--kv-dtype", "fp8", "--format", "json"]],
    ["check", { select: ["ALL"], set: ['/rope_scaling={"rope_type":"yarn","factor":4,"original_max_position_embeddings":40960}'] },
      ["check", QWEN3, "--select", "ALL", "--set", '/rope_scaling={"rope_type":"yarn","factor":4,"original_max_position_embeddings":40960}', "--format", "json"]],
    ["table", { target: "131072" }, ["table", QWEN3, "--target", "131072", "--format", "json"]],
    ["table", { target: "1M", pairs: "0,40-44", kv_dtype: "q8_0" }, ["table", QWEN3, "--target", "1M", "--pairs", "0,40-44", "--kv-dtype", "q8_0", "--format", "json"]],
    ["table", { target: "131072", engine: "all" }, ["table", QWEN3, "--target", "131072", "--engine", "all", "--format", "json"]],
    ["table", { target: "131072", engine: "all", stack: "sglang" }, ["table", QWEN3, "--target", "131072", "--engine", "all", "--stack", "sglang", "--format", "json"]],
    ["inspect", { target: "32k" }, ["inspect", QWEN3, "--target", "32k", "--format", "json"]],
    ["suggest", { target: "131072" }, ["suggest", QWEN3, "--target", "131072", "--format", "json"]],
    ["suggest", { target: "131072", stack: "vllm" }, ["suggest", QWEN3, "--target", "131072", "--stack", "vllm", "--format", "json"]],
    ["fit", { memory: "24GiB", weights: "16GB" }, ["fit", QWEN3, "--memory", "24GiB", "--weights", "16GB", "--format", "json"]],
    ["fit", { memory: "80GiB", tp: 2, kv_dtype: ["fp8", "bf16"], reserve: "10%", weights: "16GB", engine: "vllm" },
      ["fit", QWEN3, "--memory", "80GiB", "--tp", "2", "--kv-dtype", "fp8,bf16", "--reserve", "10%", "--weights", "16GB", "--engine", "vllm", "--format", "json"]],
  ];
  for (const [command, options, args] of cases) {
    const document = documentOf(await runOnConfig(QWEN3, command, options));
    assert.equal(document, runCli(args), `${command} ${JSON.stringify(options)}`);
  }
});

test("text documents fit a width as they fit a terminal, and equal the command line's when piped", async () => {
  const piped = documentOf(await runOnConfig(QWEN3, "table", { target: "131072", engine: "all", format: "text" }));
  assert.equal(piped, runCli(["table", QWEN3, "--target", "131072", "--engine", "all"]));
  const narrow = documentOf(await runOnConfig(QWEN3, "table", { target: "131072", engine: "all", format: "text", width: 40 }));
  // Lines break at spaces, never inside a word: a line wider than 40 columns is one word (an environment variable).
  const tooWide = narrow.split("\n").filter((line) => [...line].length > 40);
  assert.ok(tooWide.every((line) => !line.trim().includes(" ")), tooWide.join("\n"));
  assert.ok(tooWide.length < 5, narrow);
});

test("a GGUF file is read in parts: its header, never its weights (a 1 GiB sparse file)", async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ropelens-web-"));
  const sparse = path.join(folder, "sparse.gguf");
  fs.copyFileSync(path.join(__dirname, "..", "..", GGUF), sparse);
  fs.truncateSync(sparse, 1 << 30);
  const ropelens = await loadModule();
  const source = fileSource(sparse);
  try {
    ropelens.setModelSource(sparse, source);
    const document = documentOf(await ropelens.run("check", { target: "262144" }));
    assert.equal(document, runCli(["check", sparse, "--target", "262144", "--format", "json"]));
    const read = source.reads.reduce((sum, [, count]) => sum + count, 0);
    assert.ok(read <= 2 << 20, `read ${read} bytes of a 1 GiB file`);
  } finally {
    source.close();
    fs.rmSync(folder, { recursive: true });
  }
});

// `actual` equals `expected` but for numbers, which differ by at most `relative` of the larger.
function assertSameWithin(actual, expected, relative, where) {
  if (typeof expected === "number" && typeof actual === "number") {
    const scale = Math.max(Math.abs(actual), Math.abs(expected));
    assert.ok(actual === expected || Math.abs(actual - expected) <= relative * scale, `${where}: ${actual} vs ${expected}`);
  } else if (expected !== null && typeof expected === "object") {
    assert.equal(typeof actual, "object", where);
    assert.deepEqual(Object.keys(actual), Object.keys(expected), where);
    for (const key of Object.keys(expected)) assertSameWithin(actual[key], expected[key], relative, `${where}/${key}`);
  } else {
    assert.equal(actual, expected, where);
  }
}

test("a GGUF file's every document equals the command line's", async () => {
  const ropelens = await loadModule();
  const source = fileSource(path.join(__dirname, "..", "..", GGUF));
  try {
    ropelens.setModelSource(GGUF, source);
    for (const [command, options, args] of [
      ["check", { target: "262144" }, ["check", GGUF, "--target", "262144", "--format", "json"]],
      ["inspect", {}, ["inspect", GGUF, "--format", "json"]],
    ])
      assert.equal(documentOf(await ropelens.run(command, options)), runCli(args), command);
    // The per-pair figures of this file (llama 3.1's rope_freqs) differ from the native binary's in the last one or
    // two bits in a few places (Emscripten's libm is musl's, the binary's glibc's): equal within the brief's 1e-12
    // relative, every other value and key equal (docs/web.md).
    for (const [command, args] of [["table", []], ["suggest", []]]) {
      const shown = documentOf(await ropelens.run(command, { target: "262144" }));
      const expected = runCli([command, GGUF, "--target", "262144", "--format", "json", ...args]);
      assertSameWithin(JSON.parse(shown), JSON.parse(expected), 1e-12, command);
    }
  } finally {
    source.close();
  }
});

test("a launch line and a Modelfile are checked as check --serve and check FILE --model check them", async () => {
  const serve = "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve Qwen/Qwen3-8B --max-model-len 131072";
  assert.equal(documentOf(await runOnConfig(QWEN3, "check", { serve })),
    runCli(["check", "--serve", serve, "--model", QWEN3, "--format", "json"]));
  const script = "testdata/launch/serve-qwen3-8b.sh";
  assert.equal(documentOf(await runOnConfig(QWEN3, "check", { launch_file: script, launch_text: read(script) })),
    runCli(["check", script, "--model", QWEN3, "--format", "json"]));
  const ropelens = await loadModule();
  const gguf = "testdata/launch/qwen3-8b.gguf";
  const source = fileSource(path.join(__dirname, "..", "..", gguf));
  try {
    ropelens.setModelSource(gguf, source);
    const modelfile = "testdata/launch/Modelfile";
    assert.equal(documentOf(await ropelens.run("check", { launch_file: modelfile, launch_text: read(modelfile) })),
      runCli(["check", modelfile, "--model", gguf, "--format", "json"]));
    const llamaServer = "llama-server -m qwen3-8b.gguf -c 131072 --rope-scaling yarn --rope-scale 4 --yarn-orig-ctx 40960";
    assert.equal(documentOf(await ropelens.run("check", { serve: llamaServer })),
      runCli(["check", "--serve", llamaServer, "--model", gguf, "--format", "json"]));
  } finally {
    source.close();
  }
});

test("the report's charts are the very SVG the HTML report embeds", async () => {
  const fragment = documentOf(await runOnConfig(QWEN3, "charts", { target: "131072" }));
  const svgs = fragment.match(/<svg[\s\S]*?<\/svg>/g) || [];
  assert.equal(svgs.length, 2, "a wavelength and an angle-coverage chart");
  const report = runCli(["report", QWEN3, "--target", "131072", "-o", "-"]);
  for (const svg of svgs) assert.ok(report.includes(svg), "a chart the report does not hold");
  assert.ok(report.includes(fragment), "the setup's section differs from the report's");
});

test("rule docs are the report's articles", async () => {
  const docs = documentOf(await (await loadModule()).run("rule_docs", { codes: ["CTX201"] }));
  assert.match(docs, /^<article class="rule-doc" id="rule-CTX201">/);
  const report = runCli(["report", QWEN3, "--target", "131072", "-o", "-"]);
  assert.ok(report.includes(docs.trim()));
});

test("bad input gets the command line's one-line error; a bad option names what was expected", async () => {
  const ropelens = await loadModule();
  ropelens.setModelText("config.json", '{"model_type": "llama",\n "rope_theta": }');
  // check writes its document with the file unreadable (the command line's exit 2), as `check config.json` does;
  // inspect fails with the command line's one-line error.
  const checked = JSON.parse(documentOf(await ropelens.run("check", {})));
  assert.equal(checked.summary.unreadable_files, 1);
  assert.match(checked.files[0].error, /^config\.json: not valid JSON at byte 40: /);
  const broken = await ropelens.run("inspect", {});
  assert.equal(broken.ok, false);
  assert.equal(broken.error, checked.files[0].error);
  ropelens.setModelText("config.json", read(QWEN3));
  for (const [options, expected] of [
    [{ targett: "128k" }, /unknown option 'targett'/],
    [{ target: "lots" }, /--target: /],
    [{ select: ["CTX2O1"] }, /did you mean 'CTX201'/],
    [{ stack: "vllm@banana" }, /--stack/],
    [{ engine: "vlm" }, /did you mean 'vllm'/],
    [{ tp: 0 }, /--tp: expected a number of GPUs/],
  ]) {
    const result = await ropelens.run("check", options);
    assert.equal(result.ok, false, JSON.stringify(options));
    assert.match(result.error, expected);
    assert.ok(!result.error.includes("\n"), result.error);
  }
  assert.equal((await ropelens.run("nope")).ok, false);
  ropelens.clearModel();
  assert.match((await ropelens.run("check", {})).error, /no model/);
  assert.match((await ropelens.run("check", { serve: "vllm serve Qwen/Qwen3-8B" })).error, /no model/);
});

test("a stack the module cannot place exactly comes back as the command line's warning", async () => {
  const result = await runOnConfig(QWEN3, "check", { stack: "vllm@99.0.0" });
  assert.ok(result.ok, result.error);
  assert.ok(result.warnings.length > 0 && result.warnings[0].includes("99.0.0"), JSON.stringify(result.warnings));
});

test("a Compose file is refused with one line: the browser build has no YAML reader", async () => {
  const compose = "testdata/launch/qwen3-compose.yaml";
  const result = await runOnConfig(QWEN3, "check", { launch_file: compose, launch_text: read(compose) });
  assert.equal(result.ok, false);
  assert.match(result.error, /Compose files and Kubernetes manifests are read by the ropelens command/);
});

// The module has no file system (-sFILESYSTEM=0): a path the core asks about (fit's served model name asks whether
// config.json is a folder) is no file and no folder, whatever the memory holds. Emscripten's own stand-ins for stat
// return "done" without writing the answer, so the core read a folder or a file out of what earlier calls had left on
// the stack: after a launch check the page's fit served `--model-path config.json`, not the CLI's `.`. Here the free
// stack is filled with words that read as a folder's st_mode (S_IFDIR | 0755) before fit runs.
test("no path is a folder or a file in the module, whatever its memory holds (fit's served model name)", async () => {
  const ropelens = await loadModule();
  const poisonStack = () => {
    const m = ropelens.m;
    const top = m.stackSave() & ~3;
    const bytes = 256 << 10;
    new Uint32Array(m.HEAPU8.buffer, top - bytes, bytes / 4).fill(0o40755);
  };
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ropelens-web-"));
  try {
    fs.copyFileSync(path.join(__dirname, "..", "..", QWEN3), path.join(folder, "config.json"));
    for (const [name, cwd] of [["config.json", folder], [QWEN3, undefined]]) {
      ropelens.setModelText(name, read(QWEN3));
      documentOf(await ropelens.run("check", { serve: "vllm serve Qwen/Qwen3-8B --max-model-len 131072" }));
      poisonStack();
      const fit = documentOf(await ropelens.run("fit", { memory: "24GiB", weights: "16GB" }));
      const args = ["fit", name, "--memory", "24GiB", "--weights", "16GB", "--format", "json"];
      // config.json as the command line names it in the folder that holds it (served as `.`), and a path of the source
      const expected = cwd ? spawnSync(cli, args, { cwd, encoding: "utf8" }).stdout : runCli(args);
      assert.equal(fit, expected, `fit of ${name} after a poisoned stack`);
    }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
