/** A throwaway folder for an export test. */
import { tempDir as makeTempDir, type TempDir } from '../helpers/temp.js';

export function tempDir(): TempDir {
  return makeTempDir('voicectl-export-');
}
