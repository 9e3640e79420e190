import type { CodegenConfig } from "@graphql-codegen/cli";

// Every operation in src/ is typed from the server's exported SDL; `npm run build` runs this
// with --check, so a schema change that the generated types do not follow fails the build.
const config: CodegenConfig = {
  schema: "../schema.graphql",
  documents: ["src/**/*.{ts,tsx}", "!src/gql/**/*"],
  ignoreNoDocuments: false,
  generates: {
    "src/gql/": {
      preset: "client",
      presetConfig: { fragmentMasking: false, persistedDocuments: { hashAlgorithm: "sha256" } },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { JSON: "unknown", DateTime: "string", ID: "string" },
      },
    },
  },
};

export default config;
