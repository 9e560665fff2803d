#!/usr/bin/env python3
"""A desktop notification service for the tests: owns org.freedesktop.Notifications on the session
bus of DBUS_SESSION_BUS_ADDRESS and answers Notify (the Desktop Notifications Specification),
printing each call as one JSON line: app, replaces, icon, summary, body, actions, hints, expire.
Prints `ready` once it owns the name. Built on PyPI's jeepney (tools/setup installs it): its D-Bus
reading is independent of Kalends' own.

Usage: DBUS_SESSION_BUS_ADDRESS=unix:path=... notification_receiver.py"""
import json
import os

from jeepney import HeaderFields, MessageType, new_error, new_method_return
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import open_dbus_connection

connection = open_dbus_connection(bus=os.environ["DBUS_SESSION_BUS_ADDRESS"])
reply = connection.send_and_get_reply(message_bus.RequestName("org.freedesktop.Notifications"))
if reply.body != (1,):
    raise SystemExit(f"notification_receiver: the name was not ours: {reply.body}")
print("ready", flush=True)
shown = 0
while True:
    message = connection.receive()
    if message.header.message_type != MessageType.method_call:
        continue
    member = message.header.fields.get(HeaderFields.member)
    if member == "Notify":
        app, replaces, icon, summary, body, actions, hints, expire = message.body
        shown += 1
        print(json.dumps({"app": app, "replaces": replaces, "icon": icon, "summary": summary, "body": body,
                          "actions": list(actions), "hints": sorted(hints), "expire": expire,
                          "signature": message.header.fields.get(HeaderFields.signature)}), flush=True)
        connection.send(new_method_return(message, "u", (shown,)))
    elif member == "GetCapabilities":
        connection.send(new_method_return(message, "as", (["body", "body-markup"],)))
    else:
        connection.send(new_error(message, "org.freedesktop.DBus.Error.UnknownMethod", "s", (member or "",)))
