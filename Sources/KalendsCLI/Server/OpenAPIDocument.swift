/// The store server's API as an OpenAPI 3.1 document, served at `GET /v1/openapi.json`
/// (docs/server.md describes the same routes in prose).
enum OpenAPIDocument {
  static let json = #"""
    {
      "openapi": "3.1.0",
      "info": {
        "title": "Kalends store server",
        "version": "1",
        "description": "Calendars with EventKit's semantics over a Unix socket, where callers are identified by the kernel's evidence about their process, and over TCP, where apps present a token the person created (docs/server.md); errors are RFC 9457 problem details."
      },
      "security": [{}, {"appToken": []}],
      "paths": {
        "/v1/openapi.json": {"get": {"summary": "This document", "responses": {"200": {"description": "The document", "content": {"application/json": {"schema": {"type": "object"}}}}}}},
        "/v1/whoami": {"get": {"summary": "Who the server takes the caller for, and why", "responses": {"200": {"description": "The app and the evidence", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Identity"}}}}, "401": {"$ref": "#/components/responses/Problem"}, "403": {"$ref": "#/components/responses/Problem"}}}},
        "/v1/authorization/{service}": {
          "parameters": [{"$ref": "#/components/parameters/Service"}],
          "get": {"summary": "The app's status for a service", "responses": {"200": {"description": "The status", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Status"}}}}, "401": {"$ref": "#/components/responses/Problem"}, "404": {"$ref": "#/components/responses/Problem"}}}
        },
        "/v1/authorization/{service}/request": {
          "parameters": [{"$ref": "#/components/parameters/Service"}, {"name": "level", "in": "query", "schema": {"type": "string", "enum": ["full", "write-only", "legacy"], "default": "full"}}],
          "post": {"summary": "Ask for access; waits while the person is asked", "responses": {"200": {"description": "The status once settled", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Status"}}}}, "400": {"$ref": "#/components/responses/Problem"}, "401": {"$ref": "#/components/responses/Problem"}, "403": {"$ref": "#/components/responses/Problem"}, "404": {"$ref": "#/components/responses/Problem"}}}
        },
        "/v1/prompts": {"get": {"summary": "The person's: the prompts waiting", "responses": {"200": {"description": "Waiting prompts, oldest first", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Prompt"}}}}}, "401": {"$ref": "#/components/responses/Problem"}, "403": {"$ref": "#/components/responses/Problem"}}}},
        "/v1/prompts/{id}": {
          "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer", "minimum": 1}}, {"name": "answer", "in": "query", "required": true, "schema": {"type": "string", "enum": ["allow", "write-only", "deny"]}}],
          "post": {"summary": "The person's: answer a prompt", "responses": {"200": {"description": "Answered", "content": {"application/json": {"schema": {"type": "object", "properties": {"id": {"type": "integer"}, "answer": {"type": "string"}}, "required": ["id", "answer"]}}}}, "400": {"$ref": "#/components/responses/Problem"}, "401": {"$ref": "#/components/responses/Problem"}, "403": {"$ref": "#/components/responses/Problem"}, "404": {"$ref": "#/components/responses/Problem"}}}
        },
        "/v1/calendars": {"get": {"summary": "The event calendars the app may see", "responses": {"200": {"description": "Calendars", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Calendar"}}}}}, "401": {"$ref": "#/components/responses/Problem"}, "403": {"$ref": "#/components/responses/Problem"}}}},
        "/v1/events": {
          "get": {"summary": "Events and occurrences overlapping [from, to)", "parameters": [{"$ref": "#/components/parameters/From"}, {"$ref": "#/components/parameters/To"}, {"$ref": "#/components/parameters/Zone"}, {"$ref": "#/components/parameters/Calendar"}], "responses": {"200": {"description": "Events by start", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Event"}}}}}, "400": {"$ref": "#/components/responses/Problem"}, "401": {"$ref": "#/components/responses/Problem"}, "403": {"$ref": "#/components/responses/Problem"}}},
          "post": {"summary": "Create an event", "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/EventChange"}}}}, "responses": {"201": {"description": "Created, with its version as ETag", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Event"}}}}, "400": {"$ref": "#/components/responses/Problem"}, "401": {"$ref": "#/components/responses/Problem"}, "403": {"$ref": "#/components/responses/Problem"}, "404": {"$ref": "#/components/responses/Problem"}, "413": {"description": "The body is larger than 64 KiB"}}}
        },
        "/v1/events/{id}": {
          "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string", "format": "uuid"}}, {"name": "occurrence", "in": "query", "schema": {"type": "string"}}],
          "get": {"summary": "An event or one occurrence", "parameters": [{"name": "If-None-Match", "in": "header", "schema": {"type": "string", "pattern": "^\"[0-9]{1,18}\"$"}}], "responses": {"200": {"description": "The event, its version as ETag", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Event"}}}}, "304": {"description": "Unchanged since the version named"}, "400": {"$ref": "#/components/responses/Problem"}, "401": {"$ref": "#/components/responses/Problem"}, "403": {"$ref": "#/components/responses/Problem"}, "404": {"$ref": "#/components/responses/Problem"}}},
          "patch": {"summary": "Change the fields given", "parameters": [{"$ref": "#/components/parameters/Span"}, {"$ref": "#/components/parameters/IfMatch"}], "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/EventChange"}}}}, "responses": {"200": {"description": "The saved event", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Event"}}}}, "400": {"$ref": "#/components/responses/Problem"}, "401": {"$ref": "#/components/responses/Problem"}, "403": {"$ref": "#/components/responses/Problem"}, "404": {"$ref": "#/components/responses/Problem"}, "409": {"$ref": "#/components/responses/Problem"}, "412": {"$ref": "#/components/responses/Problem"}}},
          "delete": {"summary": "Remove it", "parameters": [{"$ref": "#/components/parameters/Span"}, {"$ref": "#/components/parameters/IfMatch"}], "responses": {"204": {"description": "Removed"}, "400": {"$ref": "#/components/responses/Problem"}, "401": {"$ref": "#/components/responses/Problem"}, "403": {"$ref": "#/components/responses/Problem"}, "404": {"$ref": "#/components/responses/Problem"}, "412": {"$ref": "#/components/responses/Problem"}}}
        },
        "/v1/instances": {"get": {"summary": "Index entries overlapping [from, to)", "parameters": [{"$ref": "#/components/parameters/From"}, {"$ref": "#/components/parameters/To"}, {"$ref": "#/components/parameters/Zone"}, {"$ref": "#/components/parameters/Calendar"}], "responses": {"200": {"description": "Instances by start", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Instance"}}}}}, "400": {"$ref": "#/components/responses/Problem"}, "401": {"$ref": "#/components/responses/Problem"}, "403": {"$ref": "#/components/responses/Problem"}}}},
        "/v1/changes": {"get": {"summary": "Change notices as Server-Sent Events", "parameters": [{"name": "from", "in": "query", "schema": {"type": "integer", "minimum": 1}}, {"name": "Last-Event-ID", "in": "header", "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"}}], "responses": {"200": {"description": "events 'changes' (id: the last position) and 'sessionEnded'", "content": {"text/event-stream": {"schema": {"type": "object", "properties": {"event": {"type": "string", "enum": ["changes", "sessionEnded"]}, "id": {"type": "string"}, "data": {"type": "string"}}, "required": ["event", "data"]}}}}, "400": {"$ref": "#/components/responses/Problem"}, "401": {"$ref": "#/components/responses/Problem"}, "403": {"$ref": "#/components/responses/Problem"}, "404": {"$ref": "#/components/responses/Problem"}}}}
      },
      "components": {
        "securitySchemes": {
          "appToken": {"type": "http", "scheme": "bearer", "description": "Over TCP only: a token from kalends client token create. Over the Unix socket the kernel identifies the caller."}
        },
        "parameters": {
          "Service": {"name": "service", "in": "path", "required": true, "schema": {"type": "string", "enum": ["calendars", "reminders", "contacts"]}},
          "From": {"name": "from", "in": "query", "required": true, "schema": {"type": "string"}, "description": "A date, a wall-clock time or an instant"},
          "To": {"name": "to", "in": "query", "required": true, "schema": {"type": "string"}},
          "Zone": {"name": "tz", "in": "query", "schema": {"type": "string"}, "description": "The viewer's IANA time zone (default UTC)"},
          "Calendar": {"name": "calendar", "in": "query", "schema": {"type": "array", "items": {"type": "string", "format": "uuid"}}, "style": "form", "explode": true},
          "Span": {"name": "span", "in": "query", "schema": {"type": "string", "enum": ["this", "future"]}},
          "IfMatch": {"name": "If-Match", "in": "header", "schema": {"type": "string", "pattern": "^\"[0-9]{1,18}\"$"}, "description": "The version fetched, as its ETag"}
        },
        "responses": {
          "Problem": {"description": "RFC 9457 problem details", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}
        },
        "schemas": {
          "Problem": {"type": "object", "properties": {"type": {"type": "string"}, "title": {"type": "string"}, "status": {"type": "integer"}, "detail": {"type": "string"}, "exitStatus": {"type": "integer"}}, "required": ["type", "title", "status", "detail", "exitStatus"]},
          "Evidence": {"type": "object", "properties": {"identifiedBy": {"type": "string", "enum": ["executable", "flatpak", "token"]}, "uid": {"type": ["integer", "null"]}, "gid": {"type": ["integer", "null"]}, "pid": {"type": ["integer", "null"]}, "executable": {"type": ["string", "null"]}, "executableSha256": {"type": ["string", "null"]}, "flatpakApp": {"type": ["string", "null"]}, "tokenId": {"type": ["string", "null"]}, "address": {"type": ["string", "null"]}, "connection": {"type": ["string", "null"]}}, "required": ["identifiedBy", "uid", "gid", "pid"]},
          "Identity": {"allOf": [{"$ref": "#/components/schemas/Evidence"}, {"type": "object", "properties": {"client": {"type": "string"}, "name": {"type": "string"}}, "required": ["client", "name"]}]},
          "Status": {"type": "object", "properties": {"service": {"type": "string"}, "status": {"type": "string", "enum": ["notDetermined", "restricted", "denied", "fullAccess", "writeOnly"]}, "granted": {"type": "boolean"}}, "required": ["service", "status"]},
          "Prompt": {"type": "object", "properties": {"id": {"type": "integer"}, "client": {"type": "string"}, "name": {"type": "string"}, "service": {"type": "string"}, "level": {"type": "string"}, "usageDescription": {"type": "string"}, "isUpgrade": {"type": "boolean"}, "executable": {"type": ["string", "null"]}, "flatpakApp": {"type": ["string", "null"]}, "pid": {"type": ["integer", "null"]}, "tokenId": {"type": ["string", "null"]}, "asked": {"type": "string"}}, "required": ["id", "client", "name", "service", "level", "usageDescription", "isUpgrade", "pid", "asked"]},
          "Calendar": {"type": "object", "properties": {"id": {"type": "string"}, "title": {"type": "string"}, "version": {"type": "integer"}}, "required": ["id", "title", "version"]},
          "Event": {"type": "object", "properties": {"id": {"type": "string"}, "calendarId": {"type": ["string", "null"]}, "title": {"type": "string"}, "start": {"type": ["string", "null"]}, "end": {"type": ["string", "null"]}, "allDay": {"type": "boolean"}, "timeZone": {"type": ["string", "null"]}, "occurrenceDate": {"type": ["string", "null"]}, "version": {"type": "integer"}}, "required": ["id", "title", "allDay", "version"]},
          "EventChange": {"type": "object", "additionalProperties": false, "properties": {"calendarId": {"type": "string"}, "title": {"type": "string"}, "start": {"type": "string"}, "end": {"type": "string"}, "timeZone": {"type": "string"}, "allDay": {"type": "boolean"}, "location": {"type": "string"}, "notes": {"type": "string"}, "url": {"type": "string"}, "recurrenceRules": {"type": "array", "items": {"type": "string"}}, "alarms": {"type": "array", "items": {"type": "string"}}, "availability": {"type": "string", "enum": ["busy", "free", "tentative", "unavailable"]}, "status": {"type": "string", "enum": ["none", "confirmed", "tentative", "canceled"]}}},
          "Instance": {"type": "object", "properties": {"id": {"type": "string"}, "calendarId": {"type": "string"}, "occurrenceDate": {"type": "string"}, "start": {"type": "integer"}, "end": {"type": "integer"}, "allDay": {"type": "boolean"}, "recurring": {"type": "boolean"}, "detached": {"type": "boolean"}}, "required": ["id", "calendarId", "occurrenceDate", "start", "end", "allDay", "recurring", "detached"]}
        }
      }
    }
    """#
}
