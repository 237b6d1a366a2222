import type { Writable } from 'node:stream';
import type { Context } from '../../context.js';
import { recordingLink } from '../../api/calls.js';
import { ApiError } from '../../api/errors.js';
import { NotFoundError } from '../../errors.js';
import { downloadToFile, downloadToStream, type DownloadProgress } from '../../export/download.js';
import { ProgressBar } from '../../io/progress.js';
import { bytes } from '../../text/text.js';
import { render } from '../../io/render.js';
import type { RecordingFlags } from './definition.js';
import { isTerminal } from '../../io/terminal.js';

export default async function callRecording(ctx: Context, callId: string, flags: RecordingFlags): Promise<void> {
  const api = await ctx.api();
  let link;
  try {
    // Asked for every time: a link lives an hour, so a saved one is soon useless.
    link = await recordingLink(api, callId, ctx.signal);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      throw new NotFoundError(`no recording for call ${callId}: the call does not exist, or its recording is not saved yet.`, {
        hint: 'A recording is usually ready within a minute of the call ending; `voicectl call get ID` shows "recording: yes" when it is.',
      });
    }
    throw err;
  }

  if (!flags.download) {
    const obj = { call_id: callId, url: link.url, ...(link.expiresAt ? { expires_at: link.expiresAt } : {}) };
    await render(ctx, {
      json: obj,
      csv: { columns: [{ header: 'call_id', key: 'call_id' }, { header: 'url', key: 'url' }, { header: 'expires_at', key: 'expires_at' }], rows: [obj] },
      human: () => {
        ctx.out(link.url);
        if (isTerminal(ctx, 'stderr')) ctx.info(ctx.errColor.dim(`Expires ${link.expiresAt ? `at ${link.expiresAt}` : 'within an hour'}; run this again for a fresh link.`));
      },
    });
    return;
  }

  const toStdout = flags.download === '-';
  const bar = new ProgressBar(ctx, { unit: 'bytes', label: 'Downloading', data: toStdout ? 'stdout' : 'file' });
  const progress: DownloadProgress = { onStart: (total) => bar.setTotal(total), onBytes: (n) => bar.add(n) };
  try {
    if (toStdout) {
      await downloadToStream(api, link.url, ctx.io.stdout as Writable, ctx.signal, progress);
      bar.clear();
      return;
    }
    const saved = await downloadToFile(api, link.url, flags.download, ctx.signal, progress);
    bar.clear();
    ctx.info(`Saved the recording of ${callId} to ${saved.path} (${bytes(saved.bytes)}${saved.contentType ? `, ${saved.contentType.split(';')[0]}` : ''}).`);
  } catch (err) {
    bar.clear();
    throw err;
  }
}
