// The playground page: reads what the person pastes or drops, runs the commands of the WebAssembly module
// (ropelens-api.js) and shows their documents. It computes nothing itself: every figure on the page is in a document
// the module wrote, as the command line would have written it. It makes no request: the module is embedded in the
// page, and the state lives in the URL's fragment, which browsers never send.
/* global Ropelens, createRopelens */
(function () {
  "use strict";

  const started = performance.now();
  const $ = (id) => document.getElementById(id);
  // Milliseconds: since this script started (…Ms) and since the navigation started (…At, performance.now()).
  const timings = { moduleReadyMs: null, readyAt: null, firstResultMs: null, firstResultAt: null, lastRunMs: null,
    lastCheckMs: null, runs: 0 };
  window.ropelensTimings = timings; // read by bench/web.py and the browser test

  const inputs = {
    config: $("config"), file: $("file"), launch: $("launch"), target: $("target"), stack: $("stack"),
    memory: $("memory"), weights: $("weights"), tp: $("tp"), kvDtype: $("kv-dtype"),
  };
  let ropelens = null;
  let model = null; // {kind: "text", name, text} or {kind: "file", name, file}
  let generation = 0;

  // ---------------------------------------------------------------------------------------------------------------
  // Small DOM helpers: text always goes in as text; only the module's own HTML (the report's charts, rule docs) as HTML.

  function el(tag, attributes = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children) if (child !== null && child !== undefined) node.append(child);
    return node;
  }

  function fill(id, ...children) {
    const node = $(id);
    node.replaceChildren(...children.filter((c) => c !== null && c !== undefined));
    return node;
  }

  function formatBytes(bytes) {
    const units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let value = bytes;
    let unit = 0;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
  }

  function number(value, digits = 4) {
    if (value === null || value === undefined) return "—";
    if (typeof value !== "number") return String(value);
    if (Number.isInteger(value)) return String(value);
    const magnitude = Math.abs(value);
    if (magnitude !== 0 && (magnitude >= 1e6 || magnitude < 1e-3)) return value.toExponential(3);
    return value.toPrecision(digits).replace(/\.?0+$/, "");
  }

  // Shell quoting for the commands shown beside each document.
  function shellWord(word) {
    return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Options: what the inputs say, as the module's options and as the command line's flags.

  function options() {
    return {
      target: inputs.target.value.trim(),
      stack: inputs.stack.value.trim(),
      memory: inputs.memory.value.trim(),
      weights: inputs.weights.value.trim(),
      tp: Number(inputs.tp.value || "1"),
      kvDtype: inputs.kvDtype.value,
      launch: inputs.launch.value.trim(),
    };
  }

  // The launch text as check reads it: a Modelfile (its first instruction is FROM), a script of several commands, or
  // one command (--serve).
  function launchOf(text) {
    if (!text) return null;
    const lines = text.replace(/\\\r?\n/g, " ").split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
    if (lines.length > 0 && /^FROM\s/i.test(lines[0])) return { launch_file: "Modelfile", launch_text: text, file: "Modelfile" };
    if (lines.length > 1) return { launch_file: "launch.sh", launch_text: text, file: "launch.sh" };
    return { serve: lines[0] || text, file: null };
  }

  // A command's module options and the command line that writes the same document.
  function command(name, moduleOptions, flags, path = model ? model.name : null) {
    const words = ["ropelens", name === "engines" ? "table" : name];
    if (path) words.push(path);
    for (const [flag, value] of flags) if (value !== "" && value !== undefined && value !== null) words.push(flag, String(value));
    return { moduleOptions, line: words.map(shellWord).join(" ") };
  }

  function stackFlag(o) {
    return ["--stack", o.stack];
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Running: one pass over the commands, each document shown as it comes. A newer pass makes an older one stop.

  async function run() {
    const pass = ++generation;
    const o = options();
    const runStarted = performance.now();
    const documents = [];
    fill("warnings");
    if (!model) {
      clearResults("Paste a config to begin.");
      return;
    }
    const exec = async (name, moduleCommand, cmd, format) => {
      const opts = Object.assign({}, cmd.moduleOptions, format ? { format } : {});
      const t0 = performance.now();
      const result = await ropelens.run(moduleCommand, opts);
      if (moduleCommand === "check" && !opts.serve && !opts.launch_file) timings.lastCheckMs = performance.now() - t0;
      if (pass !== generation) throw new Superseded();
      if (result.ok && format === "json") documents.push({ name, line: cmd.line + " --format json", text: result.document });
      for (const warning of result.warnings || []) $("warnings").append(el("li", { text: `warning: ${warning}` }));
      return result;
    };
    try {
      const common = { target: o.target, stack: o.stack, memory: o.memory, tp: o.tp, kv_dtype: o.kvDtype };
      const checkCmd = command("check", clean(common), [["--target", o.target], stackFlag(o), ["--memory", o.memory],
        ["--tp", o.tp === 1 ? "" : o.tp], ["--kv-dtype", o.kvDtype]]);
      const check = await exec("check", "check", checkCmd, "json");
      if (!check.ok) {
        clearResults(null);
        fill("summary", el("span", { class: "error-text", text: check.error }));
        showModelStatus();
        return;
      }
      const checked = JSON.parse(check.document);
      showSummary(checked);
      showFindings("findings-body", checked);
      showModelStatus();
      if (timings.firstResultMs === null) {
        timings.firstResultAt = performance.now();
        timings.firstResultMs = timings.firstResultAt - started;
      }

      await runLaunch(o, common, exec);
      await runPairs(o, exec);
      await runEngines(o, exec);
      await runFit(o, exec);
      await runSuggest(o, exec, checked);
      await runCharts(common, exec);
      showDocuments(documents);
      timings.lastRunMs = performance.now() - runStarted;
      timings.runs++;
      document.documentElement.dataset.runs = String(timings.runs);
      showLoadTime();
    } catch (e) {
      if (!(e instanceof Superseded)) throw e;
    }
  }

  class Superseded extends Error {}

  function clean(object) {
    const out = {};
    for (const [key, value] of Object.entries(object)) if (value !== "" && value !== undefined && value !== null) out[key] = value;
    if (out.tp === 1) delete out.tp;
    return out;
  }

  async function runLaunch(o, common, exec) {
    const launch = launchOf(o.launch);
    $("launch-findings").hidden = !launch;
    if (!launch) return;
    const flags = launch.serve ? [["--serve", launch.serve]] : [];
    flags.push(["--model", model.name], stackFlag(o), ["--memory", o.memory], ["--tp", o.tp === 1 ? "" : o.tp],
      ["--kv-dtype", o.kvDtype]);
    const moduleOptions = clean(Object.assign({}, common, { target: "", serve: launch.serve, launch_file: launch.launch_file,
      launch_text: launch.launch_text }));
    const cmd = command("check", moduleOptions, flags, launch.file);
    const result = await exec("check (launch)", "check", cmd, "json");
    if (!result.ok) {
      fill("launch-body", el("p", { class: "error-text", text: result.error }));
      return;
    }
    showFindings("launch-body", JSON.parse(result.document));
  }

  async function runPairs(o, exec) {
    const cmd = command("table", clean({ target: o.target, kv_dtype: o.kvDtype }), [["--target", o.target], ["--kv-dtype", o.kvDtype]]);
    const result = await exec("table", "table", cmd, "json");
    if (!result.ok) return fill("pairs-body", el("p", { class: "error-text", text: result.error }));
    showPairs(JSON.parse(result.document));
  }

  async function runEngines(o, exec) {
    const cmd = command("engines", clean({ target: o.target, engine: "all", stack: o.stack }),
      [["--engine", "all"], ["--target", o.target], stackFlag(o)]);
    const json = await exec("table --engine all", "table", cmd, "json");
    if (!json.ok) return fill("engines-body", el("p", { class: "error-text", text: json.error }));
    const text = await exec("table --engine all", "table", withWidth(cmd, "engines-body"), "text");
    fill("engines-body", el("p", { class: "muted small", text: "As the command prints it:" }),
      el("pre", { class: "cli-text", tabindex: "0", "aria-label": "engine views", text: text.ok ? text.document : text.error }),
      el("code", { class: "command small", text: cmd.line }));
  }

  async function runFit(o, exec) {
    if (!o.memory) {
      return fill("fit-body", el("p", { class: "muted", text: "Give the GPU memory (e.g. 80GiB) to see the longest context each engine fits." }));
    }
    const cmd = command("fit", clean({ memory: o.memory, weights: o.weights, tp: o.tp, stack: o.stack,
      kv_dtype: o.kvDtype ? [o.kvDtype] : [] }),
      [["--memory", o.memory], ["--weights", o.weights], ["--tp", o.tp === 1 ? "" : o.tp], stackFlag(o), ["--kv-dtype", o.kvDtype]]);
    if (cmd.moduleOptions.kv_dtype && cmd.moduleOptions.kv_dtype.length === 0) delete cmd.moduleOptions.kv_dtype;
    const json = await exec("fit", "fit", cmd, "json");
    if (!json.ok) return fill("fit-body", el("p", { class: "error-text", text: json.error }));
    const text = await exec("fit", "fit", withWidth(cmd, "fit-body"), "text");
    fill("fit-body", el("pre", { class: "cli-text", tabindex: "0", "aria-label": "fit", text: text.ok ? text.document : text.error }),
      el("code", { class: "command small", text: cmd.line }));
  }

  async function runSuggest(o, exec, checked) {
    if (!o.target) {
      return fill("suggest-body", el("p", { class: "muted", text: "Give a target length to see the smallest change that reaches it." }));
    }
    const cmd = command("suggest", clean({ target: o.target, stack: o.stack }), [["--target", o.target], stackFlag(o)]);
    const json = await exec("suggest", "suggest", cmd, "json");
    if (!json.ok) return fill("suggest-body", el("p", { class: "error-text", text: json.error }));
    const text = await exec("suggest", "suggest", withWidth(cmd, "suggest-body"), "text");
    fill("suggest-body", el("pre", { class: "cli-text", tabindex: "0", "aria-label": "suggestions", text: text.ok ? text.document : text.error }),
      el("code", { class: "command small", text: cmd.line }));
    void checked;
  }

  async function runCharts(common, exec) {
    const result = await exec("charts", "charts", { moduleOptions: clean(common), line: "" });
    const body = $("charts-body");
    if (!result.ok) return fill("charts-body", el("p", { class: "error-text", text: result.error }));
    // The report's own HTML (render_report_setups_html): every text in it is escaped by the renderer.
    body.innerHTML = result.document || "<p>No rotary layers: nothing to chart.</p>";
  }

  // The text renderers fit a width the way they fit a terminal: the characters a <pre> of the section holds.
  function withWidth(cmd, sectionId) {
    const columns = Math.max(40, Math.floor(($(sectionId).clientWidth - 16) / charWidth()));
    return { moduleOptions: Object.assign({}, cmd.moduleOptions, { width: columns }), line: cmd.line };
  }

  let measuredCharWidth = null;
  function charWidth() {
    if (measuredCharWidth) return measuredCharWidth;
    const probe = el("pre", { class: "probe", text: "0".repeat(100) });
    probe.style.position = "absolute";
    probe.style.visibility = "hidden";
    probe.style.padding = "0";
    document.body.append(probe);
    measuredCharWidth = probe.getBoundingClientRect().width / 100 || 8;
    probe.remove();
    return measuredCharWidth;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Showing documents.

  function clearResults(summary) {
    for (const id of ["findings-body", "launch-body", "pairs-body", "engines-body", "fit-body", "suggest-body", "charts-body", "documents-body"]) fill(id);
    if (summary !== null) fill("summary", summary);
  }

  function showSummary(checked) {
    const s = checked.summary;
    const file = checked.files[0] || {};
    const counts = `${s.errors} error${s.errors === 1 ? "" : "s"}, ${s.warnings} warning${s.warnings === 1 ? "" : "s"}, ${s.infos} info`;
    if (file.error) return fill("summary", el("span", { class: "error-text", text: file.error }));
    fill("summary", `${file.path}: ${file.model_type || "model"} audited at ${file.target} tokens — ${counts}`);
  }

  function locationOf(d) {
    const at = d.pointer ? d.pointer : d.flag ? `flag ${d.flag}` : "(document)";
    if (d.line) return `${at} (line ${d.line}, column ${d.column || 1})`;
    if (d.byte_offset !== undefined && d.byte_offset !== null) return `${at} (byte ${d.byte_offset})`;
    return at;
  }

  function showFindings(bodyId, checked) {
    const body = fill(bodyId);
    for (const file of checked.files) {
      if (file.error) {
        body.append(el("p", { class: "error-text", text: file.error }));
        continue;
      }
      if (checked.files.length > 1 || bodyId === "launch-body") body.append(el("p", { class: "muted", text: `${file.path}` }));
      if (file.diagnostics.length === 0) body.append(el("p", { text: "No findings." }));
      for (const d of file.diagnostics) body.append(findingCard(d));
    }
  }

  function findingCard(d) {
    const doc = el("div", { class: "rule-doc", text: "…" });
    const details = el("details", {}, el("summary", { text: `What ${d.code} checks, and how to fix it` }), doc);
    details.addEventListener("toggle", async () => {
      if (!details.open || doc.dataset.loaded) return;
      const result = await ropelens.run("rule_docs", { codes: [d.code] });
      doc.dataset.loaded = "1";
      if (result.ok) doc.innerHTML = result.document; // the rule's markdown as the report renders it, escaped there
      else doc.textContent = result.error;
    });
    return el("div", { class: `finding ${d.severity}`, "data-code": d.code },
      el("span", { class: `sev ${d.severity}`, text: d.severity }), " ", el("code", { text: d.code }), " ",
      el("strong", { text: d.name }), " ", el("span", { class: "muted small", text: `at ${locationOf(d)}` }),
      el("p", { class: "message", text: d.message }),
      d.help ? el("p", { class: "muted", text: `help: ${d.help}` }) : null, details);
  }

  const PAIR_COLUMNS = [
    ["pair", "pair"], ["band", "band"], ["wavelength_tokens", "wavelength (tokens)"],
    ["base_wavelength_tokens", "base wavelength"], ["scale", "scale"], ["turns_original", "turns in training"],
    ["seen_deg", "seen °"], ["needed_deg", "needed °"],
  ];

  function showPairs(table) {
    const body = fill("pairs-body");
    if (table.setups.length === 0) body.append(el("p", { text: `No rotary layers (positional scheme ${table.scheme}).` }));
    for (const setup of table.setups) {
      const oor = new Set(setup.out_of_range_pairs || []);
      if (table.setups.length > 1) body.append(el("h4", { text: `setup ${setup.name}` }));
      if (setup.summary) body.append(el("p", { class: "small", text: typeof setup.summary === "string" ? setup.summary : JSON.stringify(setup.summary) }));
      if (oor.size > 0) body.append(el("p", { class: "error-text", text: `Out of range at ${table.target_tokens} tokens: pairs ${ranges([...oor])}` }));
      const columns = PAIR_COLUMNS.filter(([key]) => setup.pairs.some((p) => p[key] !== undefined));
      const head = el("tr", {}, ...columns.map(([key, label]) => el("th", { class: key === "band" ? null : "num", scope: "col", text: label })));
      const rows = setup.pairs.map((p) => el("tr", { class: oor.has(p.pair) ? "oor" : null },
        ...columns.map(([key]) => el("td", { class: key === "band" ? null : "num", text: key === "pair" || key === "band" ? String(p[key]) : number(p[key]) }))));
      body.append(el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": `pairs of setup ${setup.name}` },
        el("table", {}, el("thead", {}, head), el("tbody", {}, ...rows))));
    }
  }

  function ranges(values) {
    values.sort((a, b) => a - b);
    const parts = [];
    for (let i = 0; i < values.length; i++) {
      let j = i;
      while (j + 1 < values.length && values[j + 1] === values[j] + 1) j++;
      parts.push(i === j ? `${values[i]}` : `${values[i]}–${values[j]}`);
      i = j;
    }
    return parts.join(", ");
  }

  function showDocuments(documents) {
    const body = fill("documents-body");
    for (const d of documents) {
      body.append(el("details", {},
        el("summary", {}, `${d.name}: `, el("code", { text: d.line })),
        el("pre", { "data-document": d.name, tabindex: "0", text: d.text })));
    }
  }

  function showModelStatus() {
    if (!model) return fill("model-status", "");
    if (model.kind === "text") return fill("model-status", `Pasted text, checked as ${model.name}.`);
    const size = model.file.size;
    fill("model-status", `${model.name}: ${formatBytes(size)}; read ${formatBytes(ropelens.bytesRead)}` +
      (ropelens.bytesRead < size ? " (its header only; the rest never leaves the disk or is read)." : "."));
  }

  function showLoadTime() {
    const parts = [`module ready in ${Math.round(timings.moduleReadyMs)} ms`];
    if (timings.lastCheckMs !== null) parts.push(`last check ${timings.lastCheckMs.toFixed(1)} ms`);
    $("load-time").textContent = parts.join(" · ");
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Input: pasting, dropping, opening.

  function setTextModel(text) {
    if (!text.trim()) {
      model = null;
      ropelens.clearModel();
    } else {
      model = { kind: "text", name: "config.json", text };
      ropelens.setModelText(model.name, text);
    }
  }

  function setFileModel(file) {
    model = { kind: "file", name: file.name, file };
    inputs.config.value = "";
    ropelens.setModelSource(file.name, {
      size: file.size,
      read: async (offset, count) => new Uint8Array(await file.slice(offset, offset + count).arrayBuffer()),
    });
  }

  async function openFile(file) {
    // A small JSON file is pasted (so that the link can hold it); anything else is read in parts by the module.
    const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
    const isGguf = head.length === 4 && String.fromCharCode(...head) === "GGUF";
    if (!isGguf && file.size <= 1 << 20) {
      inputs.config.value = await file.text();
      setTextModel(inputs.config.value);
      model.name = file.name.endsWith(".json") ? file.name : "config.json";
      ropelens.setModelText(model.name, inputs.config.value);
    } else {
      setFileModel(file);
    }
    changed();
  }

  let debounce = null;
  function changed(immediately = false) {
    clearTimeout(debounce);
    debounce = setTimeout(() => {
      run();
      saveState();
    }, immediately ? 0 : 250);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // State in the URL fragment: the pasted text and the options, deflated and base64url-encoded.

  async function deflate(text) {
    const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    let binary = "";
    for (const b of bytes) binary += String.fromCharCode(b);
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  async function inflate(encoded) {
    const binary = atob(encoded.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return new Response(stream).text();
  }

  function currentState() {
    const o = options();
    const state = { v: 1 };
    if (model && model.kind === "text") Object.assign(state, { config: model.text, name: model.name });
    if (model && model.kind === "file") state.file = { name: model.name, size: model.file.size };
    for (const key of ["launch", "target", "stack", "memory", "weights", "kvDtype"]) if (o[key]) state[key] = o[key];
    if (o.tp !== 1) state.tp = o.tp;
    return state;
  }

  async function saveState() {
    const state = currentState();
    const hash = Object.keys(state).length > 1 ? `#s=${await deflate(JSON.stringify(state))}` : "";
    if (location.hash !== hash) history.replaceState(null, "", hash || location.pathname + location.search);
  }

  async function loadState() {
    const match = /^#s=([A-Za-z0-9_-]+)$/.exec(location.hash);
    if (!match) return false;
    let state;
    try {
      state = JSON.parse(await inflate(match[1]));
    } catch (e) {
      fill("summary", el("span", { class: "error-text", text: "This link's state cannot be read (it was cut short?)." }));
      return false;
    }
    inputs.config.value = state.config || "";
    inputs.launch.value = state.launch || "";
    inputs.target.value = state.target || "";
    inputs.stack.value = state.stack || "";
    inputs.memory.value = state.memory || "";
    inputs.weights.value = state.weights || "";
    inputs.tp.value = String(state.tp || 1);
    inputs.kvDtype.value = state.kvDtype || "";
    setTextModel(inputs.config.value);
    if (model && state.name) {
      model.name = state.name;
      ropelens.setModelText(model.name, model.text);
    }
    if (state.file && !model) {
      fill("model-status", `This link was made with ${state.file.name} (${formatBytes(state.file.size)}): open or drop that file to see its results.`);
    }
    return true;
  }

  async function copyLink() {
    await saveState();
    const status = $("link-status");
    try {
      await navigator.clipboard.writeText(location.href);
      status.value = "Link copied.";
    } catch (e) {
      status.value = "Copy this address from the address bar: the clipboard is not available here.";
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Start: the module from the bytes embedded in the page, then the state of the link, then the first run.

  async function loadModule() {
    const embedded = $("ropelens-wasm").textContent.trim();
    const binary = atob(embedded);
    const compressed = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const stream = new Blob([compressed]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    const wasm = new Uint8Array(await new Response(stream).arrayBuffer());
    return Ropelens.load(createRopelens, wasm);
  }

  async function start() {
    ropelens = await loadModule();
    timings.readyAt = performance.now();
    timings.moduleReadyMs = timings.readyAt - started;
    window.ropelensModule = ropelens; // for bench/web.py: the module's commands, timed in the page
    const about = await ropelens.run("about");
    if (about.ok) {
      const info = JSON.parse(about.document);
      for (const engine of info.engines) $("engines").append(el("option", { value: engine }));
      for (const dtype of info.kv_dtypes) inputs.kvDtype.append(el("option", { value: dtype, text: dtype }));
    }
    await loadState();
    document.documentElement.dataset.ready = "1";
    showLoadTime();
    if (model) changed(true);

    inputs.config.addEventListener("input", () => {
      setTextModel(inputs.config.value);
      changed();
    });
    for (const input of [inputs.launch, inputs.target, inputs.stack, inputs.memory, inputs.weights, inputs.tp, inputs.kvDtype])
      input.addEventListener("input", () => changed());
    inputs.file.addEventListener("change", () => {
      if (inputs.file.files.length > 0) openFile(inputs.file.files[0]);
    });
    $("example").addEventListener("click", () => {
      inputs.config.value = $("example-config").textContent.trim();
      inputs.target.value = "128k";
      setTextModel(inputs.config.value);
      changed(true);
    });
    $("clear").addEventListener("click", () => {
      inputs.config.value = "";
      inputs.launch.value = "";
      inputs.file.value = "";
      setTextModel("");
      changed(true);
    });
    $("copy-link").addEventListener("click", copyLink);
    window.addEventListener("hashchange", async () => {
      if (await loadState()) changed(true);
    });
    document.addEventListener("dragover", (event) => {
      event.preventDefault();
      document.body.classList.add("dragging");
    });
    document.addEventListener("dragleave", (event) => {
      if (event.relatedTarget === null) document.body.classList.remove("dragging");
    });
    document.addEventListener("drop", (event) => {
      event.preventDefault();
      document.body.classList.remove("dragging");
      if (event.dataTransfer.files.length > 0) openFile(event.dataTransfer.files[0]);
    });
  }

  start().catch((e) => {
    fill("summary", el("span", { class: "error-text", text: `The module could not start: ${e.message || e}` }));
    document.documentElement.dataset.ready = "error";
  });
})();
