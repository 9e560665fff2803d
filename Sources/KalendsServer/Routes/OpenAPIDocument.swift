/// The store server's API as an OpenAPI 3.1 document, served at `GET /v1/openapi.json`
/// (docs/server.md describes the same routes in prose).
enum OpenAPIDocument {
  // `text`, the contents of Assets/OpenAPIDocument.text, is embedded at build time by the EmbedAssets plugin.
}
