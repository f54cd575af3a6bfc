import type { Harness } from './harness';

/** Posts a multipart form as a browser would (the body encoded by the platform's own FormData). */
export async function postForm(
  h: Harness,
  url: string,
  token: string,
  fields: Record<string, string>,
  file?: { field: string; name: string; data: Buffer | string },
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file)
    form.set(
      file.field,
      new Blob([typeof file.data === 'string' ? file.data : new Uint8Array(file.data)]),
      file.name,
    );
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  return h.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': encoded.headers.get('content-type')! },
    payload: body,
  });
}
