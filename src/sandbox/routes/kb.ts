/**
 * Knowledge base (spec section 4): multipart upload with the format and size rules,
 * folders created as needed, indexing jobs on the simulated clock, folder listing and
 * deletion that detaches files from agents and campaigns.
 */
import { errorBody, HttpError, type Reply, type Route } from '../router.js';
import { formatOf, indexDocument, KB_FORMATS } from '../kb-extract.js';
import { cleanFileName, deleteItem, findFolder, getItem, getJob, itemView, jobView, listFolder, normalizeFolder, storeFile } from '../kb-store.js';
import { lingerThenClose, readUpload, TooLargeError } from '../kb-upload.js';
import { notFound, page, pageParams } from '../validate.js';

const ACCEPTED = KB_FORMATS.map((f) => f.toUpperCase()).join(', ');

export const kbRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/kb/items',
    scope: 'agents:write',
    rawBody: true,
    async handle(req, world): Promise<Reply> {
      let upload;
      try {
        upload = await readUpload(req.raw);
      } catch (err) {
        if (!(err instanceof TooLargeError)) throw err;
        // Answer now; the connection is closed after a short drain instead of reading the rest.
        lingerThenClose(req.raw);
        return { status: 413, body: errorBody(413, err.message, { code: 'file_too_large' }) };
      }
      const name = cleanFileName(upload.fileName);
      const format = formatOf(name);
      if (!format) {
        throw new HttpError(415, `${name}: unsupported file type; accepted formats are ${ACCEPTED}`, { code: 'unsupported_format', accepted: [...KB_FORMATS] });
      }
      const folder = normalizeFolder(upload.folder);
      const outcome = indexDocument(format, upload.bytes);
      const kb = req.org.kb;
      const { item, job, replaced } = storeFile(world, kb, folder, name, format, upload.bytes.length, outcome);
      world.changed();
      return { status: replaced ? 200 : 201, body: { item: itemView(kb, item), job_id: job.id } };
    },
  },
  {
    method: 'GET',
    pattern: '/kb/index/status/:job_id',
    scope: 'agents:read',
    handle(req, world) {
      const job = getJob(req.org.kb, req.params.job_id!);
      if (!job) throw notFound('indexing job', req.params.job_id!);
      return { status: 200, body: jobView(job, world.clock.now()) };
    },
  },
  {
    method: 'GET',
    pattern: '/kb/items',
    scope: 'agents:read',
    handle(req) {
      const kb = req.org.kb;
      const folder = normalizeFolder(req.query.get('folder'));
      if (folder && !findFolder(kb, folder)) throw new HttpError(404, `folder ${folder} not found`, { code: 'not_found' });
      const p = pageParams(req.query);
      const items = listFolder(kb, folder).map((item) => itemView(kb, item));
      return { status: 200, body: { folder, ...page('items', items, p) } };
    },
  },
  {
    method: 'GET',
    pattern: '/kb/items/:id',
    scope: 'agents:read',
    handle(req) {
      const kb = req.org.kb;
      const item = getItem(kb, req.params.id!);
      if (!item) throw notFound('knowledge-base item', req.params.id!);
      return { status: 200, body: itemView(kb, item) };
    },
  },
  {
    method: 'DELETE',
    pattern: '/kb/items/:id',
    scope: 'agents:write',
    handle(req, world) {
      const kb = req.org.kb;
      const item = getItem(kb, req.params.id!);
      if (!item) throw notFound('knowledge-base item', req.params.id!);
      const deleted = deleteItem(req.org, kb, item);
      world.changed();
      return { status: 200, body: { id: item.id, type: item.type, path: item.path, deleted: true, deleted_ids: deleted } };
    },
  },
];
