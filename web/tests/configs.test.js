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

test("every config in testdata/configs: check JSON equal to the command line's", async () => {
  const all = configs("testdata/configs");
  assert.ok(all.length >= 50, `${all.length} configs`);
  const ropelens = await loadModule();
  const differing = [];
  for (const config of all) {
    ropelens.setModelText(config, read(config));
    const result = await ropelens.run("check", {});
    const expected = runCli(["check", config, "--format", "json"]);
    if (!result.ok || result.document !== expected) differing.push(config);
  }
  assert.deepEqual(differing, [], `${differing.length} of ${all.length} differ`);
});
