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

// Each config is checked as `check CONFIG --format json` does, and again under the engines only --stack brings in
// (MLX-LM, TensorRT-LLM, ExLlamaV3) with their views (--engine all).
const RUNS = [
  [{}, []],
  [{ stack: "mlx-lm,trtllm,exllamav3", engine: "all" }, ["--stack", "mlx-lm,trtllm,exllamav3", "--engine", "all"]],
];

test("every config in testdata/configs: check JSON equal to the command line's", async () => {
  const all = configs("testdata/configs");
  assert.ok(all.length >= 50, `${all.length} configs`);
  const ropelens = await loadModule();
  const differing = [];
  for (const config of all) {
    ropelens.setModelText(config, read(config));
    for (const [options, flags] of RUNS) {
      const result = await ropelens.run("check", options);
      const expected = runCli(["check", config, "--format", "json", ...flags]);
      if (!result.ok || result.document !== expected) differing.push(`${config} ${flags.join(" ")}`.trim());
    }
  }
  assert.deepEqual(differing, [], `${differing.length} of ${all.length * RUNS.length} differ`);
});
