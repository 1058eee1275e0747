import { defineConfig } from '@hey-api/openapi-ts';

// `npm run generate-client` turns the backend's OpenAPI document into a typed fetch client.
// The document is written by `python -m app.cli openapi frontend/openapi.json` (see `make client`).
export default defineConfig({
  input: './openapi.json',
  output: {
    path: 'src/shared/api/generated',
    clean: true,
  },
  plugins: [
    {
      name: '@hey-api/client-fetch',
      // Same origin: the FastAPI app serves both the API and this front end on one port.
      runtimeConfigPath: '../clientConfig',
    },
    '@hey-api/typescript',
    '@hey-api/sdk',
  ],
});
