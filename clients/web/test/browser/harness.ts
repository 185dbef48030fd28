// What the browser tests need: the real server binary on a free port, Debian's Chromium
// driven by playwright-core (headless, a fresh profile, no background networking), and a
// static file server for the page on another origin than the API.

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, normalize, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

import { chromium, type BrowserContext } from "playwright-core";

/** The folder of this package (`clients/web`): the tests are built into `build/tsc/web/test/`. */
export const PACKAGE_DIR = fileURLToPath(new URL("../../../../../", import.meta.url));

if (!readFileSync(join(PACKAGE_DIR, "package.json"), "utf8").includes('"name": "@halma/web"')) {
  throw new Error(`${PACKAGE_DIR} is not the web client's folder`);
}

/** Where the tests write their screenshots. */
export const ARTIFACTS_DIR = resolve(PACKAGE_DIR, "build", "screenshots");

/** The Chromium binary: `CHROMIUM_BIN`, else Debian's. */
export function chromiumPath(): string {
  return process.env["CHROMIUM_BIN"] ?? "/usr/bin/chromium";
}

/**
 * Why the browser tests cannot run here, or `undefined` when they can. In CI (`CI=true`) a
 * missing browser or server is a failure, never a skip: see {@link requireOrSkip}.
 */
export function missing(): string | undefined {
  if (!existsSync(chromiumPath())) {
    return `no Chromium at ${chromiumPath()} (apt-get install -y chromium)`;
  }
  if (!existsSync(serverBinary())) {
    return `no server binary at ${serverBinary()} (cargo build -p halma-server)`;
  }
  return undefined;
}

/**
 * The skip option of a browser test: skipped with the reason outside CI, and in CI a
 * failure that says what is missing.
 */
export function requireOrSkip(): { skip: string | false } {
  const reason = missing();
  if (reason === undefined) {
    return { skip: false };
  }
  if (process.env["CI"] === "true") {
    throw new Error(`the browser tests cannot run: ${reason}`);
  }
  console.log(`# skipping the browser tests: ${reason}`);
  return { skip: reason };
}

/** `HALMA_SERVER_BIN`, else `debug/halma-server` in `CARGO_TARGET_DIR` or the workspace's target. */
export function serverBinary(): string {
  const fromEnv = process.env["HALMA_SERVER_BIN"];
  if (fromEnv !== undefined && fromEnv !== "") {
    return resolve(fromEnv);
  }
  const targetDir = process.env["CARGO_TARGET_DIR"] ?? resolve(PACKAGE_DIR, "..", "..", "target");
  return resolve(targetDir, "debug", "halma-server");
}

/** A running server and the URL it answers at. */
export interface Running {
  readonly baseUrl: string;
  stop(): Promise<void>;
}

/** Starts the service (in-memory store, short AI budgets) on a free port. */
export async function startService(env: Record<string, string> = {}): Promise<Running> {
  const { REDIS_URL: _redis, ...inherited } = process.env;
  const child = spawn(serverBinary(), [], {
    env: {
      ...inherited,
      HALMA_BIND: "127.0.0.1:0",
      HALMA_LOG: "warn,halma_server::startup=info",
      HALMA_AI_MAX_MS: "300",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stderr: string[] = [];
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => stderr.push(chunk));
  const address = await listeningAddress(child, stderr);
  return { baseUrl: `http://${address}`, stop: () => stopChild(child) };
}

function listeningAddress(child: ChildProcess, stderr: string[]): Promise<string> {
  return new Promise((resolveAddress, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error("the server did not report its address within 20 s"));
    }, 20_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before listening: ${stderr.join("")}`));
    });
    if (child.stdout === null) {
      reject(new Error("the server's output is not piped"));
      return;
    }
    // The log line: `... listening address=127.0.0.1:PORT ...` (ANSI colours possible).
    const lines = createInterface({ input: child.stdout });
    lines.on("line", (line) => {
      const plain = line.replace(/\u001b\[[0-9;]*m/g, "");
      const match = /listening\s.*address=(\d+\.\d+\.\d+\.\d+:\d+)/.exec(plain);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        child.removeAllListeners("exit");
        resolveAddress(match[1]);
      }
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) {
    return;
  }
  const exited = new Promise((done) => child.once("exit", done));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/**
 * Serves the committed `dist/` at `/play/` from an origin of its own (another port), as a
 * static host would.
 */
export async function startStaticHost(): Promise<Running> {
  const dist = resolve(PACKAGE_DIR, "dist");
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (!url.pathname.startsWith("/play/")) {
      response.writeHead(404).end();
      return;
    }
    const relative = url.pathname.slice("/play/".length) || "index.html";
    const path = normalize(join(dist, relative));
    if (!path.startsWith(dist)) {
      response.writeHead(403).end();
      return;
    }
    readFile(path).then(
      (body) => {
        response.writeHead(200, {
          "Content-Type": TYPES[extname(path)] ?? "application/octet-stream",
        });
        response.end(body);
      },
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    stop: () => new Promise((done) => server.close(() => done())),
  };
}

/** A headless Chromium with a fresh profile, and a function that closes it and the profile. */
export async function launch(
  viewport: { width: number; height: number } = { width: 1100, height: 800 },
): Promise<{ browser: BrowserContext; close(): Promise<void> }> {
  const profile = await mkdtemp(join(tmpdir(), "halma-chromium-"));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: [
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--no-default-browser-check",
      "--disable-dev-shm-usage",
    ],
    viewport,
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
