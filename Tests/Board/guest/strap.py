#!/usr/bin/python3
"""The board test's heart-rate strap (issue 25): a Bluetooth LE peripheral on one of btvirt's
virtual controllers (hci1), served by the guest's own bluetoothd through D-Bus: a GATT
application (GattManager1) with the Heart Rate Service (0x180D: Heart Rate Measurement 0x2A37,
notified once a second while a central subscribes; Body Sensor Location 0x2A38, chest) and the
Battery Service (0x180F: Battery Level 0x2A19, 87 %), an LE advertisement (LEAdvertisingManager1:
service 180D, name "RunWay Strap") and an agent that accepts Just Works pairing.

Every notification it sends to a connected central is logged to SENT as "REALTIME BPM HEX" (the
host compares them with what arrived in the flight); what it does, with the links coming and
going, on stdout. While the file OFF exists (default
/run/strap-off) the strap is out of range: no advertisement, its links dropped, nothing sent;
when the file goes, it advertises again.

usage: strap.py [--adapter hci1] [--sent FILE] [--off FILE] [--name NAME]
"""
import argparse, os, random, sys, time

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

BLUEZ = "org.bluez"
PROPS = "org.freedesktop.DBus.Properties"
CHRC = "org.bluez.GattCharacteristic1"
ROOT = "/org/runway/strap"


def uuid16(short):
    return f"0000{short:04x}-0000-1000-8000-00805f9b34fb"


def log(text):
    print(f"{time.time():.3f} strap: {text}", flush=True)


class Properties(dbus.service.Object):
    """An object whose properties (one interface) BlueZ reads through GetAll."""
    interface = None

    def props(self):
        return {}

    @dbus.service.method(PROPS, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return self.props() if interface == self.interface else {}

    @dbus.service.method(PROPS, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.GetAll(interface)[name]

    @dbus.service.signal(PROPS, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass


class Service(Properties):
    interface = "org.bluez.GattService1"

    def __init__(self, bus, index, short):
        self.path = f"{ROOT}/service{index}"
        self.uuid = uuid16(short)
        self.characteristics = []
        super().__init__(bus, self.path)

    def props(self):
        return {"UUID": self.uuid, "Primary": True}


class Characteristic(Properties):
    interface = CHRC

    def __init__(self, bus, service, index, short, flags, value):
        self.path = f"{service.path}/char{index}"
        self.service, self.uuid, self.flags = service, uuid16(short), flags
        self.value = bytes(value)
        self.notifying = False
        service.characteristics.append(self)
        super().__init__(bus, self.path)

    def props(self):
        return {"Service": dbus.ObjectPath(self.service.path), "UUID": self.uuid,
                "Flags": dbus.Array(self.flags, signature="s")}

    @dbus.service.method(CHRC, in_signature="a{sv}", out_signature="ay")
    def ReadValue(self, options):
        return dbus.ByteArray(self.value)

    @dbus.service.method(CHRC)
    def StartNotify(self):
        log(f"{self.uuid[4:8]}: notifications on")
        self.notifying = True

    @dbus.service.method(CHRC)
    def StopNotify(self):
        log(f"{self.uuid[4:8]}: notifications off")
        self.notifying = False

    def notify(self, value):
        self.value = bytes(value)
        self.PropertiesChanged(CHRC, {"Value": dbus.ByteArray(self.value)}, [])


class Application(dbus.service.Object):
    def __init__(self, bus, services):
        self.services = services
        super().__init__(bus, ROOT)

    @dbus.service.method("org.freedesktop.DBus.ObjectManager", out_signature="a{oa{sa{sv}}}")
    def GetManagedObjects(self):
        objects = {}
        for s in self.services:
            objects[dbus.ObjectPath(s.path)] = {s.interface: s.props()}
            for c in s.characteristics:
                objects[dbus.ObjectPath(c.path)] = {c.interface: c.props()}
        return objects


class Advertisement(Properties):
    interface = "org.bluez.LEAdvertisement1"

    def __init__(self, bus, name, index):
        self.path = f"{ROOT}/advertisement{index}"
        self.name = name
        super().__init__(bus, self.path)

    def props(self):
        return {"Type": "peripheral", "ServiceUUIDs": dbus.Array(["180d", "180f"], signature="s"),
                "LocalName": self.name, "Appearance": dbus.UInt16(0x0341),  # heart rate belt
                "Discoverable": True}

    @dbus.service.method("org.bluez.LEAdvertisement1")
    def Release(self):
        log("advertisement released")


class Advertiser:
    """The strap's advertising through LEAdvertisingManager1, renewed without a gap: the next of
    two advertisements is registered before the one on the air is unregistered. btvirt's
    controllers refuse a registration while a central's LE connection attempt is pending, so a
    strap that stopped advertising first and the central that began to connect in that moment
    (board run of 4271266: runwayd's Pair 0.2 s into the gap) waited on each other until the
    central gave up; with no gap the pending connection still finds the advertisement it aimed
    at. Replies come later (D-Bus, asynchronous): `busy` while one is awaited."""
    MANAGER = "org.bluez.LEAdvertisingManager1"

    def __init__(self, adapter, advertisements, label, wanted):
        self.adapter, self.ads, self.label, self.still_wanted = adapter, advertisements, label, wanted
        self.on_air = None  # the index of the registered advertisement
        self.busy = False
        self.wanted = False

    def start(self):
        self.wanted = True
        if self.on_air is None and not self.busy:
            self._register(0, replacing=None)

    def rotate(self):
        """A fresh advertisement on the air, the old one gone only once the new one is."""
        self.wanted = True
        if self.busy:
            return
        if self.on_air is None:
            self._register(0, replacing=None)
        else:
            self._register(1 - self.on_air, replacing=self.on_air)

    def stop(self):
        self.wanted = False
        if self.on_air is not None and not self.busy:
            self._unregister(self.on_air)
            self.on_air = None

    def _register(self, index, replacing):
        self.busy = True

        def done():
            self.busy = False
            log(f"advertising as {self.label}" + ("" if replacing is None else f" (instance {index})"))
            self.on_air = index
            if replacing is not None:
                self._unregister(replacing)
            if not (self.wanted and self.still_wanted()):
                self.stop()

        def refused(error):
            # Not renewed after all: the one on the air (if any) stays; the next tick tries again.
            self.busy = False
            log(f"RegisterAdvertisement failed: {error}")
            if not (self.wanted and self.still_wanted()):
                self.stop()
        self.adapter.RegisterAdvertisement(self.ads[index].path, {}, dbus_interface=self.MANAGER,
                                           reply_handler=done, error_handler=refused)

    def _unregister(self, index):
        self.adapter.UnregisterAdvertisement(
            self.ads[index].path, dbus_interface=self.MANAGER,
            reply_handler=lambda: log(f"advertisement {index} withdrawn"),
            error_handler=lambda error: log(f"UnregisterAdvertisement failed: {error}"))


class Agent(dbus.service.Object):
    """Just Works: every confirmation and authorisation accepted (the strap has no screen)."""
    I = "org.bluez.Agent1"

    @dbus.service.method(I)
    def Release(self):
        pass

    @dbus.service.method(I, in_signature="ou")
    def RequestConfirmation(self, device, passkey):
        log(f"pairing confirmed for {device}")

    @dbus.service.method(I, in_signature="o")
    def RequestAuthorization(self, device):
        log(f"pairing authorised for {device}")

    @dbus.service.method(I, in_signature="os")
    def AuthorizeService(self, device, uuid):
        pass

    @dbus.service.method(I)
    def Cancel(self):
        pass


class Beats:
    """Realistic Heart Rate Measurements: a walk in 140-160 bpm; flags sensor contact supported
    and detected; every 5th with one RR interval (1/1024 s), every 17th as a 16-bit value."""

    def __init__(self, seed=25):
        self.rng = random.Random(seed)
        self.bpm = 148
        self.n = 0

    def next(self):
        self.n += 1
        self.bpm = min(160, max(140, self.bpm + self.rng.choice((-2, -1, 0, 0, 1, 2))))
        flags = 0x06
        wide = self.n % 17 == 0
        rr = self.n % 5 == 0
        if wide:
            flags |= 0x01
        if rr:
            flags |= 0x10
        value = bytes([flags]) + (self.bpm.to_bytes(2, "little") if wide else bytes([self.bpm]))
        if rr:
            value += round(60 / self.bpm * 1024).to_bytes(2, "little")
        return self.bpm, value


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--adapter", default="hci1")
    p.add_argument("--sent", default="/run/strap-sent.txt")
    p.add_argument("--off", default="/run/strap-off")
    p.add_argument("--name", default="RunWay Strap")
    a = p.parse_args()
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SystemBus()
    adapter_path = f"/org/bluez/{a.adapter}"
    for _ in range(100):
        try:
            bus.get_object(BLUEZ, adapter_path).Get("org.bluez.Adapter1", "Address", dbus_interface=PROPS)
            break
        except dbus.DBusException:
            time.sleep(0.2)
    else:
        sys.exit(f"strap: no {adapter_path}")
    adapter = bus.get_object(BLUEZ, adapter_path)
    adapter.Set("org.bluez.Adapter1", "Alias", a.name, dbus_interface=PROPS)
    adapter.Set("org.bluez.Adapter1", "Powered", True, dbus_interface=PROPS)
    address = adapter.Get("org.bluez.Adapter1", "Address", dbus_interface=PROPS)

    hrs = Service(bus, 0, 0x180D)
    hrm = Characteristic(bus, hrs, 0, 0x2A37, ["notify"], b"\x06\x00")
    Characteristic(bus, hrs, 1, 0x2A38, ["read"], b"\x01")  # chest
    bas = Service(bus, 1, 0x180F)
    battery = Characteristic(bus, bas, 0, 0x2A19, ["read", "notify"], b"\x57")  # 87 %
    app = Application(bus, [hrs, bas])
    agent = Agent(bus, f"{ROOT}/agent")
    manager = bus.get_object(BLUEZ, "/org/bluez")
    manager.RegisterAgent(agent, "NoInputNoOutput", dbus_interface="org.bluez.AgentManager1")
    manager.RequestDefaultAgent(agent, dbus_interface="org.bluez.AgentManager1")
    loop = GLib.MainLoop()

    def failed(what):
        def handler(error):
            log(f"{what} failed: {error}")
        return handler
    adapter.RegisterApplication(app, {}, dbus_interface="org.bluez.GattManager1",
                                reply_handler=lambda: log("GATT application registered"),
                                error_handler=failed("RegisterApplication"))
    advertiser = Advertiser(adapter, [Advertisement(bus, a.name, i) for i in (0, 1)],
                            f"{a.name} ({address})", lambda: not os.path.exists(a.off))

    dropping = set()

    def drop_links():
        try:
            objects = bus.get_object(BLUEZ, "/").GetManagedObjects(dbus_interface="org.freedesktop.DBus.ObjectManager")
        except dbus.DBusException as e:
            log(f"GetManagedObjects: {e}")
            return
        for path, interfaces in objects.items():
            device = interfaces.get("org.bluez.Device1")
            if path.startswith(adapter_path + "/") and device and device.get("Connected") and path not in dropping:
                dropping.add(path)
                log(f"dropping the link to {device.get('Address')}")
                bus.get_object(BLUEZ, path).Disconnect(
                    dbus_interface="org.bluez.Device1", reply_handler=lambda p=path: dropping.discard(p),
                    error_handler=lambda e, p=path: (log(f"disconnect: {e}"), dropping.discard(p)))

    # The centrals connected to this adapter (BlueZ's Device1 objects under it), as they come and go.
    links = set()

    def link_changed(interface, changed, invalidated, path=None):
        if interface != "org.bluez.Device1" or "Connected" not in changed or not path.startswith(adapter_path + "/"):
            return
        if bool(changed["Connected"]) == (path in links):
            return
        (links.add if changed["Connected"] else links.discard)(path)
        log(f"link {'up' if changed['Connected'] else 'down'}: {path.rsplit('/', 1)[-1]}")

    def device_added(path, interfaces):  # a central's first connection makes its object, connected
        if "org.bluez.Device1" in interfaces:
            link_changed("org.bluez.Device1", interfaces["org.bluez.Device1"], [], path=path)

    def device_removed(path, interfaces):
        if "org.bluez.Device1" in interfaces and path in links:
            link_changed("org.bluez.Device1", {"Connected": False}, [], path=path)
    bus.add_signal_receiver(link_changed, signal_name="PropertiesChanged", dbus_interface=PROPS,
                            bus_name=BLUEZ, path_keyword="path")
    objects = "org.freedesktop.DBus.ObjectManager"
    bus.add_signal_receiver(device_added, signal_name="InterfacesAdded", dbus_interface=objects, bus_name=BLUEZ)
    bus.add_signal_receiver(device_removed, signal_name="InterfacesRemoved", dbus_interface=objects, bus_name=BLUEZ)
    sent = open(a.sent, "a", buffering=1)
    beats = Beats()
    state = {"ticks": 0}
    advertiser.start()

    def tick():
        if os.path.exists(a.off):
            if advertiser.wanted:
                log("out of range")
            advertiser.stop()
            drop_links()  # every second: a central may connect just as the advertising stops
            return True
        state["ticks"] += 1
        if not links and state["ticks"] % 10 == 0:
            # Advertised anew every 10 s while nobody is connected: btvirt's emulated controllers
            # were seen to report an advertiser to a scanner only now and then (once, a 15 s scan
            # from hci0 saw nothing of an advertisement set up 20 s before).
            advertiser.rotate()
        else:
            advertiser.start()
        if hrm.notifying and links:
            bpm, value = beats.next()
            hrm.notify(value)
            sent.write(f"{time.time():.3f} {bpm} {value.hex()}\n")
        return True
    GLib.timeout_add(1000, tick)
    log(f"up on {a.adapter} ({address})")
    loop.run()


if __name__ == "__main__":
    main()
