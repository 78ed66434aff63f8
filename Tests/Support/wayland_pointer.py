#!/usr/bin/python3
"""A virtual pointer on a wlroots compositor (zwlr_virtual_pointer_v1), spoken in the Wayland wire protocol.

A headless sway has no input devices, so nothing can click a notification. This client connects to the
compositor's socket, creates one virtual pointer on the default seat and keeps it: a client such as GTK only starts
listening to the pointer once the seat announces one, so the pointer must exist a little before the first click.

Usage as a module:
    pointer = VirtualPointer("/run/user/1001/wayland-1", 1280, 800)
    pointer.click(900, 40)
    pointer.close()
or from a shell: wayland_pointer.py SOCKET WIDTH HEIGHT X Y [button]
"""
import os
import select
import socket
import struct
import sys
import time

BTN_LEFT = 0x110
WL_DISPLAY = 1


class WaylandError(OSError):
    pass


def _string(text):
    data = text.encode() + b"\0"
    return struct.pack("=I", len(data)) + data + b"\0" * (-len(data) % 4)


class VirtualPointer:
    def __init__(self, socket_path, width, height, timeout=5.0):
        self.width = width
        self.height = height
        self.timeout = timeout
        self.next_id = 2
        self.buffer = b""
        self.globals = {}  # interface -> (name, version)
        self.callbacks_done = set()
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(socket_path)
        self.registry = self.new_id()
        self.send(WL_DISPLAY, 1, struct.pack("=I", self.registry))  # wl_display.get_registry
        self.roundtrip()
        if "zwlr_virtual_pointer_manager_v1" not in self.globals:
            raise WaylandError("the compositor has no zwlr_virtual_pointer_manager_v1")
        name, version = self.globals["zwlr_virtual_pointer_manager_v1"]
        self.manager = self.new_id()
        self.send(self.registry, 0, struct.pack("=I", name) + _string("zwlr_virtual_pointer_manager_v1")
                  + struct.pack("=II", min(version, 1), self.manager))  # wl_registry.bind
        self.pointer = self.new_id()
        self.send(self.manager, 0, struct.pack("=II", 0, self.pointer))  # create_virtual_pointer(seat: null)
        self.roundtrip()
        self.position = None

    def new_id(self):
        value = self.next_id
        self.next_id += 1
        return value

    def send(self, object_id, opcode, payload=b""):
        self.sock.sendall(struct.pack("=II", object_id, ((8 + len(payload)) << 16) | opcode) + payload)

    def roundtrip(self):
        """wl_display.sync, then reads events until its callback is done: the compositor has handled every
        request sent before."""
        callback = self.new_id()
        self.send(WL_DISPLAY, 0, struct.pack("=I", callback))
        deadline = time.monotonic() + self.timeout
        while callback not in self.callbacks_done:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise WaylandError("the compositor did not answer wl_display.sync")
            ready, _, _ = select.select([self.sock], [], [], remaining)
            if not ready:
                continue
            data = self.sock.recv(65536)
            if not data:
                raise WaylandError("the compositor closed the connection")
            self.buffer += data
            self.dispatch()

    def dispatch(self):
        while len(self.buffer) >= 8:
            object_id, word = struct.unpack_from("=II", self.buffer)
            size, opcode = word >> 16, word & 0xFFFF
            if len(self.buffer) < size:
                return
            payload = self.buffer[8:size]
            self.buffer = self.buffer[size:]
            if object_id == WL_DISPLAY and opcode == 0:  # wl_display.error(object, code, message)
                failed, code, length = struct.unpack_from("=III", payload)
                message = payload[12:12 + length - 1].decode(errors="replace")
                raise WaylandError(f"protocol error on object {failed}, code {code}: {message}")
            if object_id == self.registry and opcode == 0:  # wl_registry.global(name, interface, version)
                name, length = struct.unpack_from("=II", payload)
                interface = payload[8:8 + length - 1].decode()
                offset = 8 + length + (-length % 4)
                (version,) = struct.unpack_from("=I", payload, offset)
                self.globals[interface] = (name, version)
            elif opcode == 0 and object_id not in (WL_DISPLAY, self.registry):
                self.callbacks_done.add(object_id)  # wl_callback.done; nothing else here sends events

    @staticmethod
    def now():
        return int(time.monotonic() * 1000) & 0xFFFFFFFF

    def move(self, x, y):
        x = max(0, min(int(x), self.width - 1))
        y = max(0, min(int(y), self.height - 1))
        self.send(self.pointer, 1, struct.pack("=IIIII", self.now(), x, y, self.width, self.height))
        self.send(self.pointer, 4)  # frame
        self.roundtrip()
        self.position = (x, y)

    def button(self, pressed, button=BTN_LEFT):
        self.send(self.pointer, 2, struct.pack("=III", self.now(), button, 1 if pressed else 0))
        self.send(self.pointer, 4)
        self.roundtrip()

    def click(self, x, y, button=BTN_LEFT, settle=0.15):
        """Moves to (x, y) in the layout's pixels, waits `settle` seconds (the surface gets enter and motion
        first, as from a hand), then presses and releases `button`."""
        self.move(x, y)
        time.sleep(settle)
        self.button(True, button)
        time.sleep(0.05)
        self.button(False, button)

    def close(self):
        try:
            self.send(self.pointer, 8)  # destroy
            self.send(self.manager, 1)  # destroy
            self.roundtrip()
        except (OSError, WaylandError):
            pass
        self.sock.close()


def main():
    if len(sys.argv) < 6:
        sys.stderr.write(__doc__)
        return 2
    path, width, height, x, y = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    if not os.path.isabs(path):
        path = os.path.join(os.environ["XDG_RUNTIME_DIR"], path)
    pointer = VirtualPointer(path, width, height)
    time.sleep(0.3)
    pointer.click(x, y, int(sys.argv[6], 0) if len(sys.argv) > 6 else BTN_LEFT)
    pointer.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
