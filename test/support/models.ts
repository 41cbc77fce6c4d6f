/**
 * Object schemas registered under an id (`.meta({ id })`), which Zod serves as a `$ref` into `$defs` until
 * the mount inlines them. Shared by the probe, projection and repair suites.
 */
import { z } from 'zod';

/** A small object reused at two places of one input. */
export const Screen = z.object({ id: z.string() }).meta({ id: 'Screen' });

/** A required `$ref` object whose fields are optional or defaulted. */
export const QueryModel = z
  .object({
    query: z.string().optional(),
    team_ids: z.array(z.string()).optional(),
    limit: z.number().int().default(20),
  })
  .meta({ id: 'QueryModel' });

/** A registered object that a sender may send as JSON text. */
export const ParentRequest = z.object({ data_source_id: z.string() }).meta({ id: 'ParentRequest' });
