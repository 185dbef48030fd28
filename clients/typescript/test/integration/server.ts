// Starts the real halma-server binary on a free port (the service binds port 0 and logs the
// address it got) and stops it again.

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** How long the server may take to report its address. */
const START_TIMEOUT_MS = 20_000;

/** A running server and the URL it answers at. */
export interface RunningServer {
  readonly baseUrl: string;
  stop(): Promise<void>;
}

/**
 * The server binary: `HALMA_SERVER_BIN`, else `debug/halma-server` in `CARGO_TARGET_DIR` or the
 * workspace's `target/` (this file is built into `clients/typescript/build/test/integration/`).
 */
export function serverBinary(): string {
  const fromEnv = process.env["HALMA_SERVER_BIN"];
  if (fromEnv !== undefined && fromEnv !== "") {
    return resolve(fromEnv);
  }
  const workspace = fileURLToPath(new URL("../../../../../", import.meta.url));
  const targetDir = process.env["CARGO_TARGET_DIR"] ?? resolve(workspace, "target");
  return resolve(targetDir, "debug", "halma-server");
}

/** Starts the server with the in-memory store and waits until it listens. */
export async function startServer(): Promise<RunningServer> {
  const binary = serverBinary();
  if (!existsSync(binary)) {
    throw new Error(
      `no server binary at ${binary}: build it with \`cargo build -p halma-server\` ` +
        "(or point HALMA_SERVER_BIN at one)",
    );
  }
  const { REDIS_URL: _redis, ...inherited } = process.env;
  const child = spawn(binary, [], {
    env: {
      ...inherited,
      HALMA_BIND: "127.0.0.1:0",
      HALMA_LOG: "warn,halma_server::startup=info",
      HALMA_AI_MAX_MS: "200",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stderr: string[] = [];
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => stderr.push(chunk));
  const address = await listeningAddress(child, stderr);
  return {
    baseUrl: `http://${address}`,
    stop: () => stop(child),
  };
}

/** Reads the server's log until its `listening address=...` line. */
function listeningAddress(child: ChildProcess, stderr: string[]): Promise<string> {
  return new Promise((resolveAddress, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the server did not report its address within ${START_TIMEOUT_MS} ms`));
    }, START_TIMEOUT_MS);
    const onExit = (code: number | null): void => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before listening: ${stderr.join("")}`));
    };
    child.once("exit", onExit);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    if (child.stdout === null) {
      reject(new Error("the server's output is not piped"));
      return;
    }
    const lines = createInterface({ input: child.stdout });
    lines.on("line", (line) => {
      const match = /\blistening address=(\S+)/.exec(line);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        child.off("exit", onExit);
        resolveAddress(match[1]);
      }
    });
  });
}

/** Stops the server gracefully (SIGTERM) and waits for it to exit. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve();
  }
  return new Promise((resolveStop) => {
    child.once("exit", () => resolveStop());
    child.kill("SIGTERM");
  });
}
