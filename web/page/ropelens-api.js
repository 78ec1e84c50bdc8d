// The WebAssembly module's interface for JavaScript: the page (app.js) and the Node tests (web/tests/) use it alike.
// A model is handed over as text (a pasted config.json) or as a file the module reads in parts: it asks for the bytes
// it needs (a GGUF file's header, never its weights) and the caller reads just those. Nothing here makes a request.
/* global module */
(function (root) {
  "use strict";

  const FIRST_READ = 1 << 20; // the first bytes of a file: all of a config.json, the start of a GGUF header
  const STATUS = { done: 0, failed: 1, needsBytes: 2 };

  class Ropelens {
    // `createRopelens` is the loader Emscripten writes (ropelens.js); `wasmBytes` the module it loads.
    static async load(createRopelens, wasmBytes) {
      const instance = await createRopelens({ wasmBinary: wasmBytes });
      return new Ropelens(instance);
    }

    constructor(instance) {
      this.m = instance;
      this.source = null;
      this.bytesRead = 0;
    }

    // A model pasted as text, shown under `name` (what the CLI would show for its path).
    setModelText(name, text) {
      const bytes = new TextEncoder().encode(text);
      this.setModelSource(name, { size: bytes.length, read: async (offset, count) => bytes.subarray(offset, offset + count) });
    }

    // A model read on demand: `source.size` bytes in all, `source.read(offset, count)` resolving to a Uint8Array.
    setModelSource(name, source) {
      this.source = source;
      this.head = 0;
      this.bytesRead = 0;
      this.withString(name, (shown) => this.m._rl_input_reset(shown, source.size));
    }

    clearModel() {
      this.source = null;
      this.bytesRead = 0;
      this.m._rl_input_clear();
    }

    // Runs `command` with `options` (the CLI's flags, dashes as underscores). Resolves to
    // {ok: true, document, warnings} or {ok: false, error}; reads what the module asks for on the way.
    async run(command, options = {}) {
      if (this.source && this.bytesRead === 0 && this.source.size > 0) await this.read(0, FIRST_READ);
      for (;;) {
        const status = this.withString(command, (c) => this.withString(JSON.stringify(options), (o) => this.m._rl_run(c, o)));
        const output = this.m.UTF8ToString(this.m._rl_output(), this.m._rl_output_size());
        if (status === STATUS.done) return { ok: true, document: output, warnings: JSON.parse(this.m.UTF8ToString(this.m._rl_warnings())) };
        if (status === STATUS.failed) return { ok: false, error: output };
        const needed = JSON.parse(output);
        if (!this.source) return { ok: false, error: "the module asked for bytes of a model it was not given" };
        await this.read(needed.offset, needed.count);
      }
    }

    // Reads what the module asked for: a range the head (the bytes read from the start) reaches is read by doubling
    // the head, so a header of N bytes takes log2(N) reads; a range further on (a RoPE factor tensor) alone.
    async read(offset, count) {
      const size = this.source.size;
      let start = offset;
      let end = Math.min(size, offset + count);
      if (offset <= this.head) {
        start = this.head;
        end = Math.min(size, Math.max(end, this.head * 2, FIRST_READ));
      }
      if (end <= start) throw new Error(`the module asked for bytes ${offset}+${count} of a file of ${size}`);
      const bytes = await this.source.read(start, end - start);
      if (start === this.head) this.head = start + bytes.length;
      this.bytesRead += bytes.length;
      const pointer = this.m._malloc(Math.max(1, bytes.length));
      try {
        this.m.HEAPU8.set(bytes, pointer);
        this.m._rl_input_add(start, pointer, bytes.length);
      } finally {
        this.m._free(pointer);
      }
    }

    withString(text, use) {
      const length = this.m.lengthBytesUTF8(text) + 1;
      const pointer = this.m._malloc(length);
      try {
        this.m.stringToUTF8(text, pointer, length);
        return use(pointer);
      } finally {
        this.m._free(pointer);
      }
    }
  }

  if (typeof module === "object" && module.exports) module.exports = { Ropelens };
  else root.Ropelens = Ropelens;
})(this);
