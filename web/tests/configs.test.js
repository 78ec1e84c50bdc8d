// For every config in testdata/configs, the module's check document equals the command line's, byte for byte.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { sourceDir, loadModule, read, runCli } = require("./support.js");

function configs(folder) {
  const found = [];
  for (const entry of fs.readdirSync(path.join(sourceDir, folder), { withFileTypes: true })) {
    const relative = `${folder}/${entry.name}`;
    if (entry.isDirectory()) found.push(...configs(relative));
    else if (entry.name.endsWith(".json")) found.push(relative);
  }
  return found.sort();
}

// Each config is checked as `check CONFIG --format json` does (byte for byte), and again under the engines only
// --stack brings in (MLX-LM, TensorRT-LLM, ExLlamaV3) with their views (--engine all). The views of llama3-scaled
// configs hold frequencies from pow, where Emscripten's musl and the binary's glibc differ in the last bit (docs/web.md):
// that run is held to 1e-12 relative on numbers and to equality on every key and other value.
const RUNS = [
  [{}, [], 0],
  [{ stack: "mlx-lm,trtllm,exllamav3", engine: "all" }, ["--stack", "mlx-lm,trtllm,exllamav3", "--engine", "all"], 1e-12],
];

function sameWithin(actual, expected, relative) {
  if (typeof expected === "number" && typeof actual === "number")
    return actual === expected || Math.abs(actual - expected) <= relative * Math.max(Math.abs(actual), Math.abs(expected));
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object") return false;
    const keys = Object.keys(expected);
    if (JSON.stringify(Object.keys(actual)) !== JSON.stringify(keys)) return false;
    return keys.every((key) => sameWithin(actual[key], expected[key], relative));
  }
  return actual === expected;
}

test("every config in testdata/configs: check JSON equal to the command line's", async () => {
  const all = configs("testdata/configs");
  assert.ok(all.length >= 50, `${all.length} configs`);
  const ropelens = await loadModule();
  const differing = [];
  for (const config of all) {
    ropelens.setModelText(config, read(config));
    for (const [options, flags, relative] of RUNS) {
      const result = await ropelens.run("check", options);
      const expected = runCli(["check", config, "--format", "json", ...flags]);
      const same = result.ok && (result.document === expected ||
        (relative > 0 && sameWithin(JSON.parse(result.document), JSON.parse(expected), relative)));
      if (!same) differing.push(`${config} ${flags.join(" ")}`.trim());
    }
  }
  assert.deepEqual(differing, [], `${differing.length} of ${all.length * RUNS.length} differ`);
});
