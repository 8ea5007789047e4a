/** The version the service reports, from package.json (inlined when bundled). */
import packageJson from '../package.json' with { type: 'json' };

export const VERSION: string = packageJson.version;
