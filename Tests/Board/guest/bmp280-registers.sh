#!/bin/sh
# Loads a BMP280's registers into i2c-stub at bus $1, address 0x76: chip id, the datasheet's
# calibration example (Bosch BST-BMP280-DS001, 3.11.3) and its ADC values, or — with $2 and $3 —
# other raw pressure and temperature ADC values (20 bits each).
set -eu
bus=$1
adc_p=${2:-415148}
adc_t=${3:-519888}
set_byte() { i2cset -y "$bus" 0x76 "$1" "$2" b; }
set_byte 0xD0 0x58
# dig_T1..T3, dig_P1..P9, little-endian from 0x88.
reg=0x88
for byte in 0x70 0x6B 0x43 0x67 0x18 0xFC 0x7D 0x8E 0x43 0xD6 0xD0 0x0B 0x27 0x0B 0x8C 0x00 \
    0xF9 0xFF 0x8C 0x3C 0xF8 0xC6 0x70 0x17; do
    set_byte "$reg" "$byte"
    reg=$(printf '0x%X' $((reg + 1)))
done
set_byte 0xF3 0x00
set_byte 0xF7 $((adc_p >> 12 & 0xFF))
set_byte 0xF8 $((adc_p >> 4 & 0xFF))
set_byte 0xF9 $(((adc_p & 0xF) << 4))
set_byte 0xFA $((adc_t >> 12 & 0xFF))
set_byte 0xFB $((adc_t >> 4 & 0xFF))
set_byte 0xFC $(((adc_t & 0xF) << 4))
