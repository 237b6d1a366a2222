import type { Context } from '../../context.js';
import { policySchemaText } from '../../campaigns/run/policy-file.js';
import { schemaText } from '../../gitops/schema.js';

export default async function schemaVerb(ctx: Context, flags: { runPolicy?: boolean }): Promise<void> {
  ctx.io.stdout.write(flags.runPolicy ? policySchemaText() : schemaText());
}
