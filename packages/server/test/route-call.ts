// Calls a console route from app.consoleRoutes with a body (GET: as the query), and reads whatever
// comes back: an envelope, an xlsx export (its cells as text) or anything else.
import ExcelJS from 'exceljs';
import type { Client } from './helpers';

export interface Answer {
  status: number;
  /** The body as text; for an xlsx download, every cell's text. */
  text: string;
  json?: { code: number; message: string; data: unknown };
}

/** Path parameters (`/dashboard/call/data/:days`) get a value the route accepts. */
export const fillParams = (url: string) => url.replace(/:\w+/g, '7');

function query(body: unknown): string {
  if (!body || typeof body !== 'object') return '';
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(body)) for (const item of [v].flat()) if (item !== undefined) qs.append(k, typeof item === 'object' ? JSON.stringify(item) : String(item));
  const s = qs.toString();
  return s ? `?${s}` : '';
}

async function xlsxText(buf: ArrayBuffer): Promise<string> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(buf);
  const cells: string[] = [];
  book.eachSheet((sheet) => sheet.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.text)))));
  return cells.join('\n');
}

export async function callRoute(client: Client, method: string, url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const path = fillParams(url);
  const res = method === 'GET' ? await client.raw('GET', path + query(body), undefined, headers) : await client.raw(method, path, JSON.stringify(body ?? {}), headers);
  return readAnswer(res);
}

export async function readAnswer(res: Response): Promise<Answer> {
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('spreadsheetml')) return { status: res.status, text: await xlsxText(await res.arrayBuffer()) };
  const text = await res.text();
  let json: Answer['json'];
  if (type.includes('json')) {
    try {
      json = JSON.parse(text) as Answer['json'];
    } catch {
      json = undefined;
    }
  }
  return { status: res.status, text, json };
}
