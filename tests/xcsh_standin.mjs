// A recorded stand-in for the part of xcsh's extension API that hookmsg's module uses.
//
//   node tests/xcsh_standin.mjs MODULE.js < scenario.json > record.json
//
// It imports MODULE the way xcsh loads an extension (default export called with `pi`),
// then fires the scenario's events one after another, each with a handler context, and
// prints one JSON record: the events the module subscribed to, every call it made on
// `pi` (exec, sendMessage) and, per fired event, what each handler returned or threw.
//
// Scenario (JSON on stdin):
//   exec:   "spawn" (run the command for real: stdin is /dev/null, as xcsh's pi.exec gives it;
//           a command that cannot start rejects), {"reject": MSG}, {"throw": MSG}
//           (throws before returning a promise) or {"result": VALUE} (resolves to VALUE)
//   sendMessage: "record" or "throw"
//   api:    "full" or "no-on" (an API object without `on`)
//   events: [{"name": XCSH_EVENT, "event": {...}, "ctx": {"cwd", "sessionId", "contextUsage"}}]
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const scenario = JSON.parse(readFileSync(0, "utf8"));
const calls = [];
const handlers = new Map();

function runForReal(command, args, options) {
  return new Promise((resolve, reject) => {
    let child;
    try {
      child = spawn(command, args, {
        cwd: options?.cwd,
        stdio: ["ignore", "pipe", "pipe"],
        timeout: options?.timeout,
      });
    } catch (error) {
      reject(error);
      return;
    }
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code, signal) =>
      resolve({ stdout, stderr, code: code ?? 1, killed: signal !== null }),
    );
  });
}

const pi = {
  exec(command, args, options) {
    calls.push({ kind: "exec", command, args, options: options ?? null });
    const mode = scenario.exec ?? "spawn";
    if (mode === "spawn") return runForReal(command, args, options);
    if ("throw" in mode) throw new Error(mode.throw);
    if ("reject" in mode) return Promise.reject(new Error(mode.reject));
    return Promise.resolve(mode.result);
  },
  sendMessage(message, options) {
    calls.push({ kind: "sendMessage", message, options: options ?? null });
    if (scenario.sendMessage === "throw") throw new Error("sendMessage failed");
  },
  sendUserMessage(content, options) {
    calls.push({ kind: "sendUserMessage", content, options: options ?? null });
  },
};
if (scenario.api !== "no-on") {
  pi.on = (name, handler) => {
    if (!handlers.has(name)) handlers.set(name, []);
    handlers.get(name).push(handler);
  };
}

function context(spec) {
  const given = spec ?? {};
  return {
    cwd: given.cwd ?? process.cwd(),
    hasUI: false,
    sessionManager: { getSessionId: () => given.sessionId ?? "session-1" },
    getContextUsage: () => given.contextUsage,
  };
}

const record = { subscribed: [], factory: null, calls, fired: [] };
try {
  const module = await import(pathToFileURL(process.argv[2]).href);
  await module.default(pi);
  record.factory = "ok";
} catch (error) {
  record.factory = `threw: ${error?.message ?? error}`;
}
record.subscribed = [...handlers.keys()];
for (const item of scenario.events ?? []) {
  const outcome = { name: item.name, handlers: (handlers.get(item.name) ?? []).length };
  for (const handler of handlers.get(item.name) ?? []) {
    try {
      const value = await handler(item.event ?? {}, context(item.ctx));
      outcome.returned = value === undefined ? "undefined" : value;
    } catch (error) {
      outcome.threw = String(error?.message ?? error);
    }
  }
  record.fired.push(outcome);
}
process.stdout.write(JSON.stringify(record));
