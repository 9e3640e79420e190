import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// The portal is served by `shipwise serve` from web/dist at `/`, its hashed files under /assets/.
export default defineConfig({
  plugins: [react()],
  build: { outDir: "dist", assetsDir: "assets", sourcemap: false, chunkSizeWarningLimit: 600 },
  server: {
    proxy: { "/graphql": { target: "http://127.0.0.1:8000", ws: true } },
  },
  test: { include: ["src/**/*.test.ts"], environment: "node" },
});
