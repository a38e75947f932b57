#!/usr/bin/env node
// Offline stand-in for Prisma's native schema engine binary, backed by the wasm build
// (`@prisma/schema-engine-wasm`) and a driver adapter chosen by the datasource URL scheme (see
// push-schema.mjs). Point the CLI at it with PRISMA_SCHEMA_ENGINE_BINARY (scripts/prisma.mjs
// does this); the CLI then skips downloading the native engine.
//
// What the Prisma 7.10 CLI expects from the binary, and what this shim does:
//   schema-engine --version                 prints "schema-engine-cli <wasm git hash>"
//   schema-engine --datasource '{"url":…}' cli can-connect-to-database | create-database
//       used by `db push` / `migrate dev` before the RPC session; SQLite files are checked and
//       created here, other databases are test-connected through their adapter.
//   schema-engine [--datamodels <file>]… [--datasource '{"url":…}'] [--enabled-preview-features …]
//       a JSON-RPC 2.0 session, one JSON message per line on stdin/stdout, engine logs as JSON
//       lines on stderr. Each method is forwarded to the wasm SchemaEngine method of the same name
//       (`getDatabaseVersion` → `version`); methods the wasm engine lacks (`createDatabase`,
//       `getDatabaseDescription`) answer "method not found".
//
// Checked offline with SQLite: `prisma generate`, `prisma version`, `prisma db push` (incl.
// `--accept-data-loss`, `--force-reset`), `prisma migrate dev`, `migrate deploy`,
// `migrate status`, `migrate reset --force`, `db pull`.

import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { createAdapterFactory, loadSchemaEngineWasm, openSchemaEngine, readSchemaFiles } from './push-schema.mjs';

/** Parses the flags the CLI passes; returns { datamodels, datasource, rest }. */
function parseArgs(argv) {
  const options = { datamodels: [], datasource: undefined, rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--datamodels') options.datamodels.push(argv[++i]);
    else if (arg === '--datasource') options.datasource = JSON.parse(argv[++i]);
    else if (arg === '--enabled-preview-features' || arg === '--extension-types') i++;
    else options.rest.push(arg);
  }
  return options;
}

/** Writes one log line in the engine's stderr format (the CLI parses these as JSON). */
function logLine(level, fields) {
  process.stderr.write(`${JSON.stringify({ level, fields, target: 'schema_engine::logger' })}\n`);
}

/** Absolute path of a SQLite `file:` URL, resolved against the cwd like the adapter does. */
function sqlitePath(url) {
  return path.resolve(url.slice('file:'.length).replace(/^\/\/(?=\/)/, '').split('?')[0]);
}

/** `cli <command>`: one-shot commands; errors are reported as ERROR log lines with exit 1. */
async function runCliCommand(command, url) {
  logLine('INFO', { message: `Starting schema engine CLI command ${command}` });
  const fail = (error_code, message) => {
    logLine('ERROR', { error_code, message });
    process.exitCode = 1;
  };
  if (!url) return fail('P1012', 'The --datasource argument with a url is required');
  if (url.startsWith('file:')) {
    const file = sqlitePath(url);
    if (command === 'can-connect-to-database') {
      if (!existsSync(file)) fail('P1003', `Database ${path.basename(file)} does not exist at ${file}`);
      return;
    }
    if (command === 'create-database') {
      mkdirSync(path.dirname(file), { recursive: true });
      const { factory, dispose } = await createAdapterFactory(url);
      await factory.connect();
      await dispose();
      return;
    }
  } else if (command === 'can-connect-to-database') {
    const { factory, dispose } = await createAdapterFactory(url);
    try {
      const connected = await factory.connect();
      if (!connected.ok) throw connected.error;
      await connected.value.queryRaw({ sql: 'SELECT 1', args: [], argTypes: [] });
    } catch (error) {
      fail('P1001', `Can't reach database server: ${error?.message ?? JSON.stringify(error)}`);
    } finally {
      await dispose();
    }
    return;
  }
  fail('P1000', `The cli command "${command}" is not supported by the wasm schema engine shim for ${url.split(':')[0]}`);
}

/** Turns an engine exception into a JSON-RPC error object the CLI understands. */
function rpcError(error) {
  const isPanic = error instanceof WebAssembly.RuntimeError;
  const message = error instanceof Error ? error.message : String(error);
  return {
    code: 4466,
    message: 'An error happened. Check the data field for details.',
    data: isPanic
      ? { is_panic: true, message, error: { message } }
      : { is_panic: false, message, error_code: error?.code, meta: error?.meta ?? {} },
  };
}

/** JSON-RPC session over stdio, one request at a time, until stdin closes. */
async function serve({ datamodels, datasource }) {
  let session;
  const engine = () => {
    session ??= (async () => {
      if (!datasource?.url) throw new Error('The wasm schema engine needs a datasource url (set it in prisma.config.ts)');
      const schemaFiles = (await Promise.all(datamodels.map(readSchemaFiles))).flat();
      return openSchemaEngine({
        schemaFiles,
        url: datasource.url,
        log: (line) => process.stderr.write(`${line}\n`),
      });
    })();
    return session.then((s) => s.engine);
  };

  const handle = async (request) => {
    const method = request.method === 'getDatabaseVersion' ? 'version' : request.method;
    const instance = await engine();
    if (typeof instance[method] !== 'function' || method === 'free' || method === 'constructor') {
      return { error: { code: -32601, message: `Method not found: ${request.method}` } };
    }
    return { result: (await instance[method](request.params)) ?? null };
  };

  let queue = Promise.resolve();
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    if (!line.trim()) return;
    queue = queue.then(async () => {
      let request;
      try {
        request = JSON.parse(line);
      } catch {
        process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })}\n`);
        return;
      }
      // Replies from the CLI (e.g. to a `print` request) carry no method.
      if (!request.method) return;
      const reply = await handle(request).catch((error) => ({ error: rpcError(error) }));
      process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: request.id, ...reply })}\n`);
    });
  });
  await new Promise((resolve) => lines.once('close', resolve));
  await queue;
  if (session) await session.then((s) => s.dispose(), () => {});
}

const options = parseArgs(process.argv.slice(2));
const [first, second] = options.rest;
if (first === '--version' || first === '-V') {
  const { version } = await loadSchemaEngineWasm();
  process.stdout.write(`schema-engine-cli ${version()}\n`);
} else if (first === '--help' || first === '-h') {
  process.stdout.write(
    'Usage: schema-engine.mjs [--datamodels <file>]... [--datasource <json>] [cli <command>]\n' +
      'Without a cli command it serves JSON-RPC on stdio (Prisma schema engine protocol).\n',
  );
} else if (first === 'cli') {
  await runCliCommand(second, options.datasource?.url);
} else if (first === undefined) {
  await serve(options);
} else {
  process.stderr.write(`schema-engine.mjs: unknown argument ${first}\n`);
  process.exitCode = 2;
}
