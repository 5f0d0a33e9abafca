import type { components } from './schema';

/** The contract's schemas by name, e.g. `Schemas['Partido']`. */
export type Schemas = components['schemas'];
