/**
 * Small real audio, generated in code: 16-bit mono PCM WAV files with a correct RIFF
 * header, for voice demos and call recordings. Cached, since they never change.
 */
const RATE = 8000;
const cache = new Map<string, Buffer>();

/** Tones played one after another: [frequency Hz (0 = silence), seconds][]. */
function toneWav(parts: Array<[number, number]>): Buffer {
  const key = parts.map(([f, s]) => `${f}:${s}`).join(',');
  const hit = cache.get(key);
  if (hit) return hit;
  const samples = parts.reduce((n, [, s]) => n + Math.round(s * RATE), 0);
  const buf = Buffer.alloc(44 + samples * 2);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + samples * 2, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16); // PCM chunk size
  buf.writeUInt16LE(1, 20); // PCM format
  buf.writeUInt16LE(1, 22); // mono
  buf.writeUInt32LE(RATE, 24);
  buf.writeUInt32LE(RATE * 2, 28); // byte rate
  buf.writeUInt16LE(2, 32); // block align
  buf.writeUInt16LE(16, 34); // bits per sample
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(samples * 2, 40);
  let offset = 44;
  for (const [freq, seconds] of parts) {
    const n = Math.round(seconds * RATE);
    const fade = Math.min(200, n / 2);
    for (let i = 0; i < n; i++) {
      // A short fade in and out avoids clicks between tones.
      const env = Math.min(1, i / fade, (n - i) / fade);
      const v = freq > 0 ? Math.sin((2 * Math.PI * freq * i) / RATE) * 0.3 * env : 0;
      buf.writeInt16LE(Math.round(v * 32767), offset);
      offset += 2;
    }
  }
  if (cache.size > 64) cache.clear();
  cache.set(key, buf);
  return buf;
}

/** A few seconds of alternating "agent" and "caller" tones; `variant` picks one of a few pitches. */
export function recordingWav(variant: number): Buffer {
  const base = 330 + (variant % 4) * 40;
  return toneWav([[base, 0.8], [0, 0.2], [base * 1.5, 0.7], [0, 0.2], [base, 0.9], [0, 0.2], [base * 1.5, 0.5]]);
}

export function demoWav(variant: number): Buffer {
  const base = 260 + (variant % 8) * 30;
  return toneWav([[base, 0.5], [base * 1.25, 0.5], [base * 1.5, 0.6]]);
}
