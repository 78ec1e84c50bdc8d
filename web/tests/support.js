// What the module's tests share: the built module loaded in node through the page's own interface
// (web/page/ropelens-api.js), and the command line run on the same input for comparison.
//   ROPELENS_WEB_BUILD   the folder holding ropelens.js and ropelens.wasm (default build-web)
//   ROPELENS_BIN         the command line (default build/ropelens)
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const { execFileSync, spawnSync } = require("node:child_process");

const sourceDir = path.resolve(__dirname, "..", "..");
const webBuild = path.resolve(sourceDir, process.env.ROPELENS_WEB_BUILD || "build-web");
const cli = path.resolve(sourceDir, process.env.ROPELENS_BIN || "build/ropelens");
const { Ropelens } = require(path.join(sourceDir, "web/page/ropelens-api.js"));

let loaded = null;

// One module instance for a test file: the module keeps no state between commands but the model it is given.
async function loadModule() {
  if (!loaded) {
    const createRopelens = require(path.join(webBuild, "ropelens.js"));
    loaded = await Ropelens.load(createRopelens, fs.readFileSync(path.join(webBuild, "ropelens.wasm")));
  }
  return loaded;
}

// A file the module reads in parts, counting what it reads.
function fileSource(file) {
  const fd = fs.openSync(file, "r");
  const source = {
    size: fs.fstatSync(fd).size,
    reads: [],
    read: async (offset, count) => {
      const buffer = Buffer.alloc(count);
      const got = fs.readSync(fd, buffer, 0, count, offset);
      source.reads.push([offset, got]);
      return new Uint8Array(buffer.buffer, buffer.byteOffset, got);
    },
    close: () => fs.closeSync(fd),
  };
  return source;
}

// The command line's output (stdout) for these arguments, run in the source folder as the paths are relative to it.
function runCli(args, { allowFailure = true } = {}) {
  const done = spawnSync(cli, args, { cwd: sourceDir, encoding: "utf8", maxBuffer: 64 << 20 });
  if (done.error) throw done.error;
  if (!allowFailure && done.status !== 0) throw new Error(`ropelens ${args.join(" ")} exited ${done.status}: ${done.stderr}`);
  return done.stdout;
}

function cliVersion() {
  return execFileSync(cli, ["--version"], { encoding: "utf8" });
}

function read(relative) {
  return fs.readFileSync(path.join(sourceDir, relative), "utf8");
}

// Runs a command on a config given by its path relative to the source folder (shown as the CLI shows it).
async function runOnConfig(relative, command, options = {}) {
  const ropelens = await loadModule();
  ropelens.setModelText(relative, read(relative));
  return ropelens.run(command, options);
}

function documentOf(result) {
  if (!result.ok) throw new Error(`the module failed: ${result.error}`);
  return result.document;
}

module.exports = { sourceDir, webBuild, cli, loadModule, fileSource, runCli, cliVersion, read, runOnConfig, documentOf };
