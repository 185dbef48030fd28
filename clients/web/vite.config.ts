// Builds the page into dist/, which the service embeds and serves at /play/. Asset URLs are
// relative (`base: "./"`), so the same files work from any folder of any static host.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  base: "./",
  resolve: {
    // The SDK is compiled from its source: no separate build step, never a stale copy. Its
    // one dependency resolves from this package's node_modules.
    alias: {
      "@halma/client": fileURLToPath(new URL("../typescript/src/index.ts", import.meta.url)),
    },
    dedupe: ["openapi-fetch"],
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // One stylesheet and one script: the page is small.
    sourcemap: false,
    reportCompressedSize: false,
  },
});
