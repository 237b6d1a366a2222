import type { Context } from '../../context.js';
import { schemaText } from '../../gitops/schema.js';

export default async function schemaVerb(ctx: Context): Promise<void> {
  ctx.io.stdout.write(schemaText());
}
