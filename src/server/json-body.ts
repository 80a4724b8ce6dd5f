// JSON request bodies are checked for nesting depth before they are parsed: a body of
// `[[[…]]]` 10,000 deep parses, but overflows the stack of whatever walks it next (it once
// made JSON.stringify in the batch store answer 500).
import type { FastifyInstance } from 'fastify';

/** Whether the JSON text nests arrays or objects deeper than `maxDepth` (strings skipped). */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (inString) {
      if (code === 92 /* \ */) at++;
      else if (code === 34 /* " */) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 91 /* [ */ || code === 123 /* { */) {
      if (++depth > maxDepth) return true;
    } else if (code === 93 /* ] */ || code === 125 /* } */) depth--;
  }
  return false;
}

/** Fastify's own JSON parser (prototype-poisoning checks and all), behind the depth check. */
export function addJsonDepthLimit(app: FastifyInstance, maxDepth: number): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (nestsDeeperThan(body.toString(), maxDepth)) {
      const error = new Error(`the JSON body is nested more than ${maxDepth} levels deep; send an array of flat shipment objects.`);
      done(Object.assign(error, { statusCode: 400 }), undefined);
      return;
    }
    void parseJson(request, body.toString(), done);
  });
}
