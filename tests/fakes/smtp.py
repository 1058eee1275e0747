"""A minimal SMTP server (RFC 5321 subset: EHLO, AUTH PLAIN, MAIL, RCPT, DATA, QUIT) that keeps what
it receives, so the SMTP mail adapter is tested over a real socket."""

from __future__ import annotations

import base64
import socketserver
from dataclasses import dataclass, field

from tests.fakes.server import FakeTCPServer, serve_in_background, stop


@dataclass
class ReceivedMail:
    sender: str
    recipients: list[str]
    data: str


@dataclass
class FakeSmtp:
    server: socketserver.ThreadingTCPServer
    username: str = "mailer"
    password: str = "s3cret"
    received: list[ReceivedMail] = field(default_factory=list)
    logins: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"smtp://{self.username}:{self.password}@{host!s}:{port}"

    def close(self) -> None:
        stop(self.server)


def _handler(fake: FakeSmtp) -> type[socketserver.StreamRequestHandler]:
    class Handler(socketserver.StreamRequestHandler):
        def handle(self) -> None:
            self._reply("220 fake-smtp ready")
            sender, recipients = "", []
            while line := self.rfile.readline():
                command = line.decode().rstrip("\r\n")
                verb = command.split(" ", 1)[0].upper()
                if verb == "EHLO":
                    self._reply("250-fake-smtp\r\n250 AUTH PLAIN")
                elif verb == "AUTH":
                    self._auth(command)
                elif verb == "MAIL":
                    sender = command.split(":", 1)[1].strip().split(" ")[0].strip("<>")
                    self._reply("250 OK")
                elif verb == "RCPT":
                    recipients.append(command.split(":", 1)[1].strip().strip("<>"))
                    self._reply("250 OK")
                elif verb == "DATA":
                    self._reply("354 End data with <CR><LF>.<CR><LF>")
                    fake.received.append(ReceivedMail(sender, recipients, self._data()))
                    sender, recipients = "", []
                    self._reply("250 OK queued")
                elif verb == "QUIT":
                    self._reply("221 Bye")
                    return
                else:
                    self._reply("250 OK")

        def _auth(self, command: str) -> None:
            encoded = command.split(" ")[2] if len(command.split(" ")) > 2 else ""
            _, user, password = base64.b64decode(encoded).decode().split("\0")
            if (user, password) == (fake.username, fake.password):
                fake.logins.append(user)
                self._reply("235 Authentication successful")
            else:
                self._reply("535 Authentication failed")

        def _data(self) -> str:
            lines = []
            while (line := self.rfile.readline().decode()) not in (".\r\n", ""):
                lines.append(line[1:] if line.startswith("..") else line)
            return "".join(lines)

        def _reply(self, text: str) -> None:
            self.wfile.write(text.encode() + b"\r\n")

    return Handler


def start_fake_smtp() -> FakeSmtp:
    server = FakeTCPServer(("127.0.0.1", 0), socketserver.StreamRequestHandler)
    fake = FakeSmtp(server=server)
    server.RequestHandlerClass = _handler(fake)
    serve_in_background(server, "fake-smtp")
    return fake
