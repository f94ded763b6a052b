'''python-dbusmock template: BlueZ 5 with heart-rate straps and footpods, for RunWayBluetoothTests.

It loads dbusmock's own bluez5 template (org.bluez on /, Adapter1, Device1, org.bluez.Mock's
AddAdapter and AddDevice) and adds what that template lacks, as methods of org.bluez.Mock on /:

  AddSensor(adapter, address, name, kind, rssi) -> path   kind: heart_rate | cadence
      a Device1 advertising the sensor's service UUID, with the given Name and RSSI; its Connect
      sets Connected, adds the GATT objects (the measurement characteristic, Battery Level) with
      InterfacesAdded, then sets ServicesResolved, as bluetoothd does.
  Notify(address, uuid16, value)              a PropertiesChanged of the characteristic's Value
  Flood(address, uuid16, value, count)        the same, count times, in one call
  DropLink(address)                           Connected=false, ServicesResolved=false (out of range)
  RefusePairing(address, error_name)          Pair raises error_name
  StallPairing(address, milliseconds)         Pair answers only after that long (the mock is busy
                                              meanwhile), then fails as bluetoothd's own timeout
  PairingCancelled(address) -> b              whether Device1.CancelPairing was called on it
  RefuseConnect(address, error_name)          Connect raises error_name (once)
  StallServices(address)                      Connect connects but never resolves services
  Vanish(address)                             the device and its GATT objects are removed

and, as bluetoothd does, Adapter1.StopDiscovery invalidates every device's RSSI and TxPower, and
StartDiscovery gives every sensor not connected its RSSI again (its advertisements are seen).

Run it on a private bus: DBUS_SESSION_BUS_ADDRESS=… python3 -m dbusmock --session --template
Tests/Fixtures/bluetooth/bluez_sensors.py
'''

import time

import dbus

from dbusmock import OBJECT_MANAGER_IFACE, mockobject
from dbusmock.templates import bluez5

BUS_NAME = bluez5.BUS_NAME
MAIN_OBJ = bluez5.MAIN_OBJ
SYSTEM_BUS = True
IS_OBJECT_MANAGER = True

MOCK_IFACE = bluez5.BLUEZ_MOCK_IFACE
DEVICE_IFACE = bluez5.DEVICE_IFACE
ADAPTER_IFACE = bluez5.ADAPTER_IFACE
SERVICE_IFACE = 'org.bluez.GattService1'
CHAR_IFACE = 'org.bluez.GattCharacteristic1'
PROPS_IFACE = 'org.freedesktop.DBus.Properties'

SERVICES = {'heart_rate': (0x180D, 0x2A37), 'cadence': (0x1814, 0x2A53)}


def uuid(short):
    return f'0000{short:04x}-0000-1000-8000-00805f9b34fb'


def device_path(address):
    for path, obj in mockobject.objects.items():
        if DEVICE_IFACE in obj.props and obj.props[DEVICE_IFACE]['Address'] == address:
            return path
    raise dbus.exceptions.DBusException(f'no device {address}', name=MOCK_IFACE + '.NoSuchDevice')


def changed(obj, interface, props):
    for key, value in props.items():
        obj.props[interface][key] = value
    obj.EmitSignal(PROPS_IFACE, 'PropertiesChanged', 'sa{sv}as', [interface, props, []])


def characteristic_path(address, short):
    prefix = device_path(address) + '/'
    for path, obj in mockobject.objects.items():
        if path.startswith(prefix) and CHAR_IFACE in obj.props and obj.props[CHAR_IFACE]['UUID'] == uuid(short):
            return path
    raise dbus.exceptions.DBusException(f'{address} has no characteristic {short:04x}', name=MOCK_IFACE + '.NoSuchCharacteristic')


def start_notify(char):
    changed(char, CHAR_IFACE, {'Notifying': dbus.Boolean(True, variant_level=1)})


def stop_notify(char):
    changed(char, CHAR_IFACE, {'Notifying': dbus.Boolean(False, variant_level=1)})


def read_value(char, _options):
    return dbus.Array(char.props[CHAR_IFACE]['Value'], signature='y')


def add_gatt(device):
    '''The GATT objects bluetoothd creates once it has resolved the sensor's services.'''
    path = device.path
    if path + '/service0010' in mockobject.objects:
        return
    manager = mockobject.objects['/']
    service16, char16 = SERVICES[device.sensor_kind]
    objects = [
        (path + '/service0010', SERVICE_IFACE, {
            'UUID': dbus.String(uuid(service16), variant_level=1),
            'Device': dbus.ObjectPath(path, variant_level=1),
            'Primary': dbus.Boolean(True, variant_level=1),
        }, []),
        (path + '/service0010/char0011', CHAR_IFACE, {
            'UUID': dbus.String(uuid(char16), variant_level=1),
            'Service': dbus.ObjectPath(path + '/service0010', variant_level=1),
            'Flags': dbus.Array(['notify'], signature='s', variant_level=1),
            'Notifying': dbus.Boolean(False, variant_level=1),
            'Value': dbus.Array([], signature='y', variant_level=1),
        }, [('StartNotify', '', '', start_notify), ('StopNotify', '', '', stop_notify),
            ('ReadValue', 'a{sv}', 'ay', read_value)]),
        (path + '/service0020', SERVICE_IFACE, {
            'UUID': dbus.String(uuid(0x180F), variant_level=1),
            'Device': dbus.ObjectPath(path, variant_level=1),
            'Primary': dbus.Boolean(True, variant_level=1),
        }, []),
        (path + '/service0020/char0021', CHAR_IFACE, {
            'UUID': dbus.String(uuid(0x2A19), variant_level=1),
            'Service': dbus.ObjectPath(path + '/service0020', variant_level=1),
            'Flags': dbus.Array(['read', 'notify'], signature='s', variant_level=1),
            'Notifying': dbus.Boolean(False, variant_level=1),
            'Value': dbus.Array([dbus.Byte(device.battery)], signature='y', variant_level=1),
        }, [('StartNotify', '', '', start_notify), ('StopNotify', '', '', stop_notify),
            ('ReadValue', 'a{sv}', 'ay', read_value)]),
    ]
    for child, interface, props, methods in objects:
        manager.AddObject(child, interface, props, methods)
        manager.EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesAdded', 'oa{sa{sv}}',
                           [dbus.ObjectPath(child), {interface: props}])


def connect(device):
    if device.connect_error:
        name, device.connect_error = device.connect_error, None
        raise dbus.exceptions.DBusException('Page Timeout', name=name)
    if device.props[DEVICE_IFACE]['Connected']:
        raise dbus.exceptions.DBusException('Already Connected', name='org.bluez.Error.AlreadyConnected')
    changed(device, DEVICE_IFACE, {'Connected': dbus.Boolean(True, variant_level=1)})
    if device.stall_services:
        return
    add_gatt(device)
    changed(device, DEVICE_IFACE, {'ServicesResolved': dbus.Boolean(True, variant_level=1)})


def disconnect(device):
    if not device.props[DEVICE_IFACE]['Connected']:
        raise dbus.exceptions.DBusException('Not Connected', name='org.bluez.Error.NotConnected')
    changed(device, DEVICE_IFACE, {'Connected': dbus.Boolean(False, variant_level=1),
                                   'ServicesResolved': dbus.Boolean(False, variant_level=1)})


def pair(device):
    if device.pair_stall:
        time.sleep(device.pair_stall)
        device.pair_stall = 0
        raise dbus.exceptions.DBusException('Authentication Timeout', name='org.bluez.Error.AuthenticationTimeout')
    if device.pair_error:
        raise dbus.exceptions.DBusException('Authentication Failed', name=device.pair_error)
    if device.props[DEVICE_IFACE]['Paired']:
        raise dbus.exceptions.DBusException('Already Exists', name='org.bluez.Error.AlreadyExists')
    changed(device, DEVICE_IFACE, {'Paired': dbus.Boolean(True, variant_level=1)})


@dbus.service.method(MOCK_IFACE, in_signature='ssssn', out_signature='s')
def AddSensor(self, adapter, address, name, kind, rssi):
    path = self.AddDevice(adapter, address, name)
    device = mockobject.objects[path]
    device.sensor_kind = str(kind)
    device.rssi = int(rssi)  # what its advertisements say when a scan sees it again
    device.battery = 87  # what ReadValue on Battery Level returns
    device.pair_error = None
    device.pair_stall = 0
    device.pairing_cancelled = False
    device.connect_error = None
    device.stall_services = False
    service16, _ = SERVICES[device.sensor_kind]
    device.AddMethods(DEVICE_IFACE, [('Connect', '', '', connect), ('Disconnect', '', '', disconnect),
                                     ('Pair', '', '', pair), ('CancelPairing', '', '', cancel_pairing)])
    changed(device, DEVICE_IFACE, {'UUIDs': dbus.Array([uuid(service16)], signature='s', variant_level=1),
                                   'RSSI': dbus.Int16(rssi, variant_level=1)})
    return path


def cancel_pairing(device):
    device.pairing_cancelled = True


@dbus.service.method(MOCK_IFACE, in_signature='sqay', out_signature='')
def Notify(_self, address, short, value):
    char = mockobject.objects[characteristic_path(address, short)]
    changed(char, CHAR_IFACE, {'Value': dbus.Array(value, signature='y', variant_level=1)})


@dbus.service.method(MOCK_IFACE, in_signature='sqayu', out_signature='')
def Flood(_self, address, short, value, count):
    char = mockobject.objects[characteristic_path(address, short)]
    props = {'Value': dbus.Array(value, signature='y', variant_level=1)}
    for _ in range(count):
        char.EmitSignal(PROPS_IFACE, 'PropertiesChanged', 'sa{sv}as', [CHAR_IFACE, props, []])


@dbus.service.method(MOCK_IFACE, in_signature='s', out_signature='')
def DropLink(_self, address):
    disconnect(mockobject.objects[device_path(address)])


@dbus.service.method(MOCK_IFACE, in_signature='ss', out_signature='')
def RefusePairing(_self, address, error_name):
    mockobject.objects[device_path(address)].pair_error = str(error_name)


@dbus.service.method(MOCK_IFACE, in_signature='su', out_signature='')
def StallPairing(_self, address, milliseconds):
    mockobject.objects[device_path(address)].pair_stall = milliseconds / 1000


@dbus.service.method(MOCK_IFACE, in_signature='s', out_signature='b')
def PairingCancelled(_self, address):
    return mockobject.objects[device_path(address)].pairing_cancelled


@dbus.service.method(MOCK_IFACE, in_signature='ss', out_signature='')
def RefuseConnect(_self, address, error_name):
    mockobject.objects[device_path(address)].connect_error = str(error_name)


@dbus.service.method(MOCK_IFACE, in_signature='s', out_signature='')
def StallServices(_self, address):
    mockobject.objects[device_path(address)].stall_services = True


@dbus.service.method(MOCK_IFACE, in_signature='s', out_signature='')
def Vanish(self, address):
    path = device_path(address)
    manager = mockobject.objects['/']
    for child in sorted([p for p in mockobject.objects if p.startswith(path + '/')], reverse=True):
        interface = mockobject.objects[child].interface
        self.RemoveObject(child)
        manager.EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesRemoved', 'oas', [dbus.ObjectPath(child), [interface]])
    self.RemoveObject(path)
    manager.EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesRemoved', 'oas', [dbus.ObjectPath(path), [DEVICE_IFACE]])


def stop_discovery(adapter):
    '''bluez5's StopDiscovery, then what bluetoothd does when discovery ends (src/adapter.c:
    discovery_cleanup → invalidate_rssi_and_tx_power): every device of the adapter loses RSSI and
    TxPower, PropertiesChanged with both invalidated.'''
    bluez5.StopDiscovery(adapter)
    prefix = adapter.path + '/'
    for path, obj in list(mockobject.objects.items()):
        if not path.startswith(prefix) or DEVICE_IFACE not in obj.props:
            continue
        props = obj.props[DEVICE_IFACE]
        gone = [name for name in ('RSSI', 'TxPower') if name in props]
        for name in gone:
            del props[name]
        if gone:
            obj.EmitSignal(PROPS_IFACE, 'PropertiesChanged', 'sa{sv}as',
                           [DEVICE_IFACE, dbus.Dictionary({}, signature='sv'), gone])


def start_discovery(adapter):
    '''bluez5's StartDiscovery, then what bluetoothd does as advertisements arrive: every sensor
    that is not connected (a connected one no longer advertises) has its RSSI again.'''
    bluez5.StartDiscovery(adapter)
    prefix = adapter.path + '/'
    for path, obj in list(mockobject.objects.items()):
        if not path.startswith(prefix) or not hasattr(obj, 'rssi') or DEVICE_IFACE not in obj.props:
            continue
        if obj.props[DEVICE_IFACE].get('Connected', False):
            continue
        changed(obj, DEVICE_IFACE, {'RSSI': dbus.Int16(obj.rssi, variant_level=1)})


@dbus.service.method(MOCK_IFACE, in_signature='ss', out_signature='s')
def AddAdapter(self, device_name, system_name):
    '''bluez5's AddAdapter, with StartDiscovery giving the sensors in range their RSSI again and
    StopDiscovery invalidating it, as BlueZ does.'''
    path = bluez5.AddAdapter(self, device_name, system_name)
    mockobject.objects[path].AddMethods(ADAPTER_IFACE, [('StartDiscovery', '', '', start_discovery),
                                                        ('StopDiscovery', '', '', stop_discovery)])
    return path


# bluez5's own methods (AddDevice, PairDevice, …) become this template's too: dbusmock adds every
# D-Bus method it finds in the template module.
AddDevice = bluez5.AddDevice
RemoveAdapter = bluez5.RemoveAdapter


def load(mock, parameters):
    bluez5.load(mock, parameters)
