import type { FastifyInstance } from 'fastify';
import { AppError } from './errors/index.ts';

/**
 * The API's JSON body parser, in place of fastify's. It refuses what fastify's refuses (an empty
 * body, text that is not JSON, a `__proto__` key or a `constructor` holding a `prototype` anywhere
 * in the value, since such keys can reach the prototype of objects a later merge builds), but says
 * which of these it was: fastify answers all of them "not valid JSON", which sends a client with a
 * valid document looking for a syntax error. JSON.parse's own message is not repeated (it quotes
 * part of the body); only the position it names is.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.length === 0) {
      done(new AppError('malformed_body', 'The request declares a JSON body but sends none.'), undefined);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      done(new AppError('malformed_body', invalidJsonDetail(error instanceof Error ? error.message : '')), undefined);
      return;
    }
    // Only a text that spells one of the keys is walked: most bodies cost one substring search.
    if ((text.includes('__proto__') || text.includes('constructor')) && reachesPrototype(value)) {
      done(new AppError('malformed_body', 'The request body holds a "__proto__" key or a "constructor" with a "prototype": such keys are refused (they can change the prototype of objects).'), undefined);
      return;
    }
    done(null, value);
  });
}

function invalidJsonDetail(message: string): string {
  if (/unexpected end of JSON input/i.test(message)) return 'The request body is not valid JSON: it ends before the value is complete.';
  const position = /at position (\d+)/.exec(message)?.[1];
  return position === undefined ? 'The request body is not valid JSON.' : `The request body is not valid JSON (at character ${position}).`;
}

/** Whether the parsed value has, at any depth, a `__proto__` key or a `constructor` object with a `prototype` key. Iterative: a body may nest deeply. */
function reachesPrototype(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current !== 'object' || current === null) continue;
    if (Array.isArray(current)) {
      for (const item of current) pending.push(item);
      continue;
    }
    const record = current as Record<string, unknown>;
    if (Object.hasOwn(record, '__proto__')) return true;
    const constructor = Object.hasOwn(record, 'constructor') ? record.constructor : undefined;
    if (typeof constructor === 'object' && constructor !== null && Object.hasOwn(constructor, 'prototype')) return true;
    for (const key of Object.keys(record)) pending.push(record[key]);
  }
  return false;
}
