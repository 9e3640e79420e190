"""GraphQL Code Generator loads the schema from a live server's URL (by introspection) and
generates what it generates from `schema.graphql`: the portal's own output (web/codegen.ts,
client preset, the portal's documents) and every type of the schema (`typescript` plugin)."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from bench.kit.harness import Backend
from tests.clients import node

CONFIG = """
import portal from {portal};

const outputs = Object.values(portal.generates);
if (outputs.length !== 1) throw new Error("web/codegen.ts should generate one output");
const [client] = outputs;
export default {{
  ...portal,
  schema: {schema},
  generates: {{
    {client_dir}: client,
    {types_file}: {{ plugins: ["typescript"], config: client.config }},
  }},
}};
"""
"""A codegen config of the test's own: the portal's, with `schema` and the outputs replaced."""

SCALAR_COMMENTS = re.compile(r"(?<=export type Scalars = \{\n)(?:.*\n)*?(?=\};\n)")
"""The `Scalars` type's body. The `typescript` plugin writes a custom scalar's description
only from SDL (its `astNode`): from a URL the body has no `/** … */` lines, the one
difference between the two outputs."""


def _without_scalar_comments(text: str) -> str:
    return SCALAR_COMMENTS.sub(
        lambda body: "".join(
            line for line in body.group().splitlines(True) if not line.lstrip().startswith("/**")
        ),
        text,
    )


async def _generate(directory: Path, schema: str | dict[str, object]) -> dict[str, str]:
    """What codegen writes with `schema` as the source, by path under `directory`."""
    directory.mkdir()
    config = directory / "codegen.ts"
    config.write_text(
        CONFIG.format(
            portal=json.dumps(str(node.WEB / "codegen.ts")),
            schema=json.dumps(schema),
            client_dir=json.dumps(f"{directory}/out/client/"),
            types_file=json.dumps(f"{directory}/out/schema.ts"),
        )
    )
    codegen = str(node.WEB / "node_modules" / ".bin" / "graphql-codegen")
    await node.run(codegen, "--config", str(config))
    out = directory / "out"
    return {str(p.relative_to(out)): p.read_text() for p in sorted(out.rglob("*")) if p.is_file()}


async def test_codegen_from_the_url_generates_what_it_does_from_the_file(
    sqlite_backend: Backend, tmp_path: Path
) -> None:
    node.require_packages(
        "@graphql-codegen/cli", "@graphql-codegen/client-preset", "@graphql-codegen/typescript"
    )
    from_url, from_file = await asyncio.gather(
        # Deprecated arguments are part of the schema: introspection asks for them too.
        _generate(
            tmp_path / "url",
            {f"{sqlite_backend.base_url}/graphql": {"inputValueDeprecation": True}},
        ),
        _generate(tmp_path / "file", str(node.WEB.parent / "schema.graphql")),
    )
    assert set(from_url) == set(from_file) >= {"client/graphql.ts", "client/gql.ts", "schema.ts"}
    for path in sorted(set(from_file) - {"schema.ts"}):
        assert from_url[path] == from_file[path], path
    assert "export type MeQuery = " in from_url["client/graphql.ts"]
    types = from_url["schema.ts"]
    assert "export type Scalars = {" in types and "export type Comparison = {" in types
    assert _without_scalar_comments(types) == types
    assert types == _without_scalar_comments(from_file["schema.ts"])
