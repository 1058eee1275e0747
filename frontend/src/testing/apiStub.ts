/** One recorded call to the stubbed API. */
export interface StubbedCall {
  method: string;
  path: string;
  search: URLSearchParams;
  body: unknown;
}

export interface StubbedAnswer {
  status?: number;
  body?: unknown;
}

type Route = StubbedAnswer | ((call: StubbedCall) => StubbedAnswer);

/** A JSON body parsed; a multipart body (an upload) as its fields, files included. */
async function readBody(request: Request): Promise<unknown> {
  if ((request.headers.get('Content-Type') ?? '').startsWith('multipart/form-data')) {
    return Object.fromEntries((await request.formData()).entries());
  }
  const text = await request.text();
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/**
 * A fetch that answers `"METHOD /path"` routes (a fixed answer, or one computed from the call) and
 * 404 for everything else, and records every call with its parsed JSON body.
 */
export function stubApi(routes: Record<string, Route>): { calls: StubbedCall[]; callsTo: (route: string) => StubbedCall[] } {
  const calls: StubbedCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      const call: StubbedCall = {
        method: request.method,
        path: url.pathname,
        search: url.searchParams,
        body: await readBody(request),
      };
      calls.push(call);
      const route = routes[`${call.method} ${call.path}`];
      const answer = typeof route === 'function' ? route(call) : (route ?? { status: 404, body: { message: 'Not found' } });
      return new Response(JSON.stringify(answer.body ?? {}), {
        status: answer.status ?? 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return { calls, callsTo: (route) => calls.filter((call) => `${call.method} ${call.path}` === route) };
}
