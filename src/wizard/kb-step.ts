/**
 * The knowledge-base question: tick documents already in the knowledge base, after
 * optionally uploading files or folders from here (the uploads come pre-ticked).
 */
import type { ApiClient } from '../api/client.js';
import { deleteItem, isFolder, listItems, type KbItem } from '../api/kb.js';
import type { Context } from '../context.js';
import { collectFiles, reportSkipped } from '../kb/collect.js';
import { bytes as formatBytes, noun } from '../text/text.js';
import { failureMessage, uploadAll } from '../kb/uploader.js';
import { UsageError } from '../errors.js';
import { checkbox, confirm, input, select } from '../io/prompter.js';
import { drawsProgress, withSpinner } from '../io/progress.js';
import { terminalLine } from '../text/terminal-text.js';
import { shellQuote } from '../text/text.js';

/** Enough for any knowledge base a person would tick through; beyond it, use --kb. */
const MAX_FOLDERS = 50;
const MAX_ITEMS = 500;

/** Every file, walking folders breadth first, within the caps above. */
async function allDocuments(ctx: Context, api: ApiClient): Promise<KbItem[]> {
  const files: KbItem[] = [];
  const queue: Array<string | undefined> = [undefined];
  let folders = 0;
  while (queue.length > 0 && folders < MAX_FOLDERS && files.length < MAX_ITEMS) {
    const folder = queue.shift();
    folders++;
    for (const item of await listItems(api, folder, ctx.signal)) {
      if (isFolder(item)) queue.push(String(item.path ?? (folder ? `${folder}/${item.name}` : item.name)));
      else files.push(item);
    }
  }
  return files;
}

type Choice = 'pick' | 'upload' | 'none' | 'keep';

/** A file the wizard put in the knowledge base; `replaced`: it took the id of a document already there. */
export interface UploadedDoc {
  id: string;
  path: string;
  replaced: boolean;
}

/**
 * `names` learns the path of every document seen, for the review screen; `uploaded` each
 * file uploaded from here, as soon as the service has it (for the clean-up after Ctrl-C).
 */
export async function askDocuments(ctx: Context, current: string[] | undefined, names: Map<string, string>, uploaded: UploadedDoc[] = []): Promise<string[] | undefined> {
  const api = await ctx.api();
  let docs: KbItem[];
  try {
    docs = await withSpinner(ctx, 'Reading the knowledge base', () => allDocuments(ctx, api));
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    ctx.warn(`could not read the knowledge base (${(err as Error).message}); documents can be attached later with \`voicectl agent update --kb-add\`.`);
    return current;
  }
  const learn = () => {
    for (const d of docs) names.set(String(d.id), String(d.path ?? d.name ?? d.id));
  };
  learn();
  const fresh: string[] = [];
  for (;;) {
    const choices: Array<{ value: Choice; name: string }> = [];
    if (docs.length > 0) choices.push({ value: 'pick', name: `Choose from the knowledge base (${docs.length} ${noun(docs.length, 'document')})` });
    choices.push({ value: 'upload', name: docs.length > 0 ? 'Upload files first, then choose' : 'Upload files or folders now' });
    if (current?.length) choices.push({ value: 'keep', name: `Keep the ${current.length} attached` });
    choices.push({ value: 'none', name: 'No documents' });
    const how: Choice = fresh.length > 0 ? 'pick' : await select<Choice>(ctx, 'Knowledge-base documents the agent can search', choices);
    if (how === 'none') return [];
    if (how === 'keep') return current;
    if (how === 'upload') {
      fresh.push(...(await uploadFromHere(ctx, api, uploaded)));
      docs = await allDocuments(ctx, api).catch(() => docs);
      learn();
      if (fresh.length === 0) continue;
    }
    const ticked = new Set([...(current ?? []), ...fresh]);
    return checkbox(ctx, 'Documents  (space to tick, enter to go on)', docs.map((d) => ({
      value: String(d.id),
      name: `${terminalLine(String(d.path ?? d.name ?? d.id))}${typeof d.size_bytes === 'number' ? ctx.errColor.dim(`  ${formatBytes(d.size_bytes)}`) : ''}`,
      short: String(d.path ?? d.name ?? d.id),
      checked: ticked.has(String(d.id)),
    })), { pageSize: 15 });
  }
}

/** Asks for paths until an empty answer, then uploads them as `kb upload` would; returns the new ids. */
async function uploadFromHere(ctx: Context, api: ApiClient, uploaded: UploadedDoc[]): Promise<string[]> {
  const paths: string[] = [];
  for (;;) {
    const answer = (await input(ctx, paths.length ? 'Another file or folder (empty when done)' : 'File or folder to upload (empty to go back)')).trim();
    if (!answer) break;
    paths.push(answer.replace(/^(['"])(.*)\1$/, '$2'));
  }
  if (paths.length === 0) return [];
  const folder = (await input(ctx, 'Folder in the knowledge base (empty for the top level)')).trim();
  let plan;
  try {
    plan = await collectFiles(ctx.cwd, paths, folder || undefined);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    ctx.warn(err.message);
    return [];
  }
  reportSkipped(ctx, plan.skipped, plan.hidden);
  if (plan.files.length === 0) return [];
  const outcomes = await uploadAll(ctx, api, plan.files, {
    onUploaded: (o) => uploaded.push({ id: o.id!, path: o.path, replaced: o.replaced === true }),
  });
  const c = ctx.errColor;
  // On a terminal the progress display has already listed each file.
  if (!drawsProgress(ctx)) {
    for (const o of outcomes) ctx.info(o.status === 'failed' ? `${c.red('✗')} ${o.path}: ${o.error}` : `${o.replaced ? 'replaced (same id)' : 'uploaded'} ${o.path}`);
  }
  const ok = outcomes.filter((o) => o.id !== undefined);
  ctx.info(c.green(`Uploaded ${ok.length} of ${outcomes.length}; indexing continues in the background.`));
  return ok.map((o) => o.id!);
}

/**
 * After Ctrl-C (or Cancel, or quitting): the files the wizard had already uploaded stay in
 * the knowledge base unless removed. Says which, and at a terminal offers to delete the
 * new ones; otherwise prints their ids and the commands that delete them. A file that
 * replaced a document of the same name kept that document's id: deleting it would remove
 * the document that was there before, so it is only named.
 */
export async function offerToDeleteUploads(ctx: Context, uploaded: UploadedDoc[]): Promise<void> {
  if (uploaded.length === 0) return;
  const c = ctx.errColor;
  const created = uploaded.filter((u) => !u.replaced);
  const replaced = uploaded.filter((u) => u.replaced);
  const line = (u: UploadedDoc) => `  ${terminalLine(u.path)}  ${c.dim(terminalLine(u.id))}`;
  ctx.info('');
  if (created.length > 0) {
    ctx.info(`Before stopping, the wizard had uploaded ${created.length === 1 ? 'this file' : `these ${created.length} files`} to the knowledge base:`);
    for (const u of created) ctx.info(line(u));
  }
  if (replaced.length > 0) {
    ctx.info(`${replaced.length === 1 ? 'This upload' : 'These uploads'} replaced a document of the same name, keeping its id (left as ${replaced.length === 1 ? 'it is' : 'they are'}: deleting would remove the document that was there before):`);
    for (const u of replaced) ctx.info(line(u));
  }
  if (created.length === 0) return;
  // A Ctrl-C that stopped the run (not a key pressed at a question) leaves nothing to ask with.
  if (ctx.io.canPrompt() && !ctx.opts.yes && !ctx.signal.aborted) {
    let remove = false;
    try {
      remove = await confirm(ctx, `Delete ${created.length === 1 ? 'it' : `these ${created.length} files`} from the knowledge base?`);
    } catch {
      // A second Ctrl-C: keep them, and say how to delete them below.
    }
    if (remove) {
      const api = await ctx.api();
      const left: UploadedDoc[] = [];
      for (const u of created) {
        try {
          await deleteItem(api, u.id);
          ctx.info(`${c.green('✓')} deleted ${terminalLine(u.path)}`);
        } catch (err) {
          left.push(u);
          ctx.info(`${c.red('✗')} ${terminalLine(u.path)}: ${failureMessage(err)}`);
        }
      }
      if (left.length > 0) printDeleteCommands(ctx, left);
      return;
    }
  }
  printDeleteCommands(ctx, created);
}

function printDeleteCommands(ctx: Context, docs: UploadedDoc[]): void {
  ctx.info(docs.length === 1 ? 'It stays in the knowledge base. To delete it:' : 'They stay in the knowledge base. To delete them:');
  for (const u of docs) ctx.info(`  voicectl kb delete ${terminalLine(shellQuote(u.id))} --yes`);
}
