import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

// ajv-formats is CommonJS with a default export; under NodeNext it arrives wrapped.
const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => Ajv2020;

/** The document's schemas are JSON Schema 2020-12 (OpenAPI 3.1); its own keywords are left alone. */
const createAjv2020 = (options: Options) =>
  addFormats(new Ajv2020({ strict: false, allErrors: true, validateFormats: true, ...options }));

/**
 * Every answer an API test receives must be one the OpenAPI document describes: the status is
 * listed for the operation, the media type is one of that status's, the body is valid against
 * its schema (JSON Schema 2020-12, formats checked, `$ref`s into `components` resolved), and every
 * header the document declares `required` is there (and valid against its schema).
 *
 * `inject` (app.ts) runs it on every answer; there is no opting out. Answers that belong to no
 * operation are not checked: unknown paths and methods (404, 405: no route, so no operation) and
 * routes left out of the document on purpose (`schema.hide`: CORS preflights, /openapi.json,
 * /docs, the web pages). HEAD is checked against the GET operation, without a body.
 *
 * Hand-rolled on Ajv rather than a library: openapi-response-validator (and the jest/chai
 * plugins built on it) understand OpenAPI 3.0 schemas only (`nullable`, no `type: "null"`, no
 * 2020-12), express-openapi-validator is Express middleware, and openapi-backend's response
 * validation ignores media types and required headers; what is needed here is ~150 lines on the
 * Ajv the project already has.
 */

type Json = any;

interface Operation {
  id: string;
  path: string;
  method: string;
  responses: Record<string, Json>;
}

interface Template {
  path: string;
  pattern: RegExp;
  /** Characters outside `{parameters}`: a static match beats a parameter one, as in the router. */
  literal: number;
  item: Json;
}

const ROOT_ID = 'https://intake.invalid/openapi.json';

/** JSON pointer of a location in the document, as a URI fragment. */
const pointer = (...parts: string[]) =>
  `#/${parts.map((part) => encodeURIComponent(part.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')}`;

class DocumentCheck {
  private readonly ajv = createAjv2020({ coerceTypes: false });
  private readonly headerAjv = createAjv2020({ coerceTypes: true });
  private readonly templates: Template[];
  private readonly validators = new Map<string, (data: unknown) => boolean>();

  constructor(private readonly document: Json) {
    this.ajv.addSchema({ $id: ROOT_ID, components: document.components, paths: document.paths });
    this.headerAjv.addSchema({ $id: ROOT_ID, components: document.components, paths: document.paths });
    this.templates = Object.entries(document.paths ?? {}).map(([path, item]) => ({
      path,
      item,
      pattern: new RegExp(
        `^${path
          .split(/(\{[^}]+\})/)
          .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
          .join('')}$`,
      ),
      literal: path.replace(/\{[^}]+\}/g, '').length,
    }));
  }

  /** The documented operation `method path` is, if any. */
  operation(method: string, path: string): Operation | undefined {
    const key = method.toLowerCase();
    const candidates = this.templates
      .filter((template) => template.pattern.test(path) && template.item[key])
      .sort((a, b) => b.literal - a.literal);
    const template = candidates[0];
    if (!template) return undefined;
    const operation = template.item[key];
    return {
      id: operation.operationId ?? `${method} ${template.path}`,
      path: template.path,
      method: key,
      responses: operation.responses ?? {},
    };
  }

  /** Follows a `$ref` into the document (`#/components/...`). */
  resolve(value: Json): Json {
    let current = value;
    for (let hops = 0; current?.$ref !== undefined && hops < 10; hops++) {
      const ref: string = current.$ref;
      if (!ref.startsWith('#/')) throw new Error(`unsupported $ref ${ref}`);
      current = ref
        .slice(2)
        .split('/')
        .reduce(
          (node: Json, part) => node?.[decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')],
          this.document,
        );
      if (current === undefined) throw new Error(`unresolved $ref ${ref}`);
    }
    return current;
  }

  validator(location: string, headers = false): (data: unknown) => boolean {
    const key = `${headers ? 'h' : 'b'}${location}`;
    let validate = this.validators.get(key);
    if (!validate) {
      const ajv = headers ? this.headerAjv : this.ajv;
      validate = ajv.compile({ $ref: `${ROOT_ID}${location}` });
      this.validators.set(key, validate);
    }
    return validate;
  }

  errorsOf(validate: Json): string {
    return (validate.errors ?? [])
      .slice(0, 5)
      .map(
        (error: Json) => `${error.instancePath || '(root)'} ${error.message} ${JSON.stringify(error.params)}`,
      )
      .join('; ');
  }

  /** The problems of one answer, or [] when the document describes it. */
  check(method: string, path: string, response: LightMyRequestResponse): string[] | undefined {
    const head = method === 'HEAD';
    const operation = this.operation(head ? 'GET' : method, path);
    if (!operation) return undefined;
    const name = `${operation.id} (${method} ${operation.path}) answered ${response.statusCode}`;
    const status = String(response.statusCode);
    const declared =
      operation.responses[status] !== undefined
        ? status
        : operation.responses[`${status[0]}XX`] !== undefined
          ? `${status[0]}XX`
          : operation.responses.default !== undefined
            ? 'default'
            : undefined;
    if (declared === undefined) {
      return [
        `${name}, a status the document does not list (it lists ${Object.keys(operation.responses).join(', ')}): ${response.body.slice(0, 300)}`,
      ];
    }
    const problems: string[] = [];
    const spec = this.resolve(operation.responses[declared]);
    const specLocation = operation.responses[declared].$ref
      ? pointer(...operation.responses[declared].$ref.slice(2).split('/'))
      : pointer('paths', operation.path, operation.method, 'responses', declared);

    for (const [header, rawHeader] of Object.entries<Json>(spec.headers ?? {})) {
      const definition = this.resolve(rawHeader);
      const value = response.headers[header.toLowerCase()];
      if (value === undefined) {
        if (definition.required) problems.push(`${name} without the header ${header} the document requires`);
        continue;
      }
      if (!definition.schema) continue;
      const location = rawHeader.$ref
        ? `${pointer(...rawHeader.$ref.slice(2).split('/'))}/schema`
        : `${specLocation}/headers/${encodeURIComponent(header)}/schema`;
      const validate = this.validator(location, true);
      if (!validate(String(value))) {
        problems.push(
          `${name} with a header ${header}: ${String(value)} that breaks its schema: ${this.errorsOf(validate)}`,
        );
      }
    }

    const content: Record<string, Json> = spec.content ?? {};
    const body = response.rawPayload;
    const contentType = String(response.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase();
    if (head) return problems;
    // An empty text is a body where its media type's schema allows one (an NDJSON export of no responses).
    const declaredSchema = contentType ? content[contentType]?.schema : undefined;
    const emptyText = declaredSchema?.type === 'string' && !(declaredSchema.minLength > 0);
    if (body.length === 0 && !emptyText) {
      if (Object.keys(content).length > 0)
        problems.push(`${name} without a body, where the document declares one`);
      return problems;
    }
    if (Object.keys(content).length === 0) {
      problems.push(`${name} with a body (${contentType}) where the document declares none`);
      return problems;
    }
    // a media range (`image/*`, `*/*`) declares every type it covers: a file is sent under the type read from its bytes
    const ranges = contentType ? [contentType, `${contentType.split('/')[0]}/*`, '*/*'] : [];
    const media = ranges.find((candidate) => content[candidate] !== undefined);
    if (media === undefined) {
      problems.push(
        `${name} with the media type ${contentType || '(none)'}, not one the document declares (${Object.keys(content).join(', ')})`,
      );
      return problems;
    }
    if (!content[media].schema) return problems;
    let data: unknown = response.body;
    if (media === 'application/json' || media.endsWith('+json')) {
      try {
        data = JSON.parse(response.body);
      } catch {
        problems.push(`${name} with a ${media} body that is not JSON: ${response.body.slice(0, 200)}`);
        return problems;
      }
    }
    const location = `${specLocation}/content/${encodeURIComponent(media.replace(/~/g, '~0').replace(/\//g, '~1'))}/schema`;
    const validate = this.validator(location);
    if (!validate(data)) {
      problems.push(
        `${name} with a ${media} body that breaks the schema: ${this.errorsOf(validate)}; body: ${response.body.slice(0, 300)}`,
      );
    }
    return problems;
  }
}

/**
 * Routes served but hidden from the document on purpose: CORS preflights, the document and its
 * reader, and the web pages (API.md §11: HTML and scripts for browsers, not operations of the API).
 */
const HIDDEN_ROUTES = [
  /^OPTIONS /,
  /^(?:GET|HEAD) \/(?:openapi\.json|docs)(?:\/|$)/,
  /^[A-Z]+ \/(?:app|assets|f)(?:\/|$)/,
  /^(?:GET|HEAD) \/embed\.js$/,
];

/** One check per distinct document: apps built alike share compiled validators. */
const byDocument = new Map<string, DocumentCheck>();
const byApp = new WeakMap<FastifyInstance, DocumentCheck>();

function checkOf(app: FastifyInstance): DocumentCheck {
  let check = byApp.get(app);
  if (!check) {
    const text = JSON.stringify(app.swagger());
    check = byDocument.get(text);
    if (!check) {
      check = new DocumentCheck(JSON.parse(text));
      byDocument.set(text, check);
    }
    byApp.set(app, check);
  }
  return check;
}

/** Throws when `response`, the answer to `method url`, is not what the OpenAPI document describes. */
export function assertDocumented(
  app: FastifyInstance,
  method: string,
  url: string,
  response: LightMyRequestResponse,
): void {
  const upper = method.toUpperCase();
  const path = url.split('?')[0] ?? '/';
  let route: unknown;
  try {
    route = app.findRoute({ method: upper as 'GET', url: path });
  } catch {
    route = null; // a path the router cannot read: answered before any route
  }
  // no route: an unknown path or method (404, 405), not an operation
  if (!route) return;
  const problems = checkOf(app).check(upper, path, response);
  if (problems === undefined) {
    // a route the document leaves out: only those hidden on purpose
    if (HIDDEN_ROUTES.some((hidden) => hidden.test(`${upper} ${path}`))) return;
    throw new Error(
      `The route answering ${upper} ${path} is not in /openapi.json (schema.hide it, or document it)`,
    );
  }
  if (problems.length > 0) {
    throw new Error(`The answer is not what /openapi.json says:\n- ${problems.join('\n- ')}`);
  }
}
