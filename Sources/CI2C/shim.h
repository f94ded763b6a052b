/* RunWay's window onto /dev/i2c-N: open + I2C_SLAVE (an ioctl Swift cannot call: it is
 * variadic), and libi2c's SMBus block read / byte write. Errors come back as -errno. */
#ifndef RUNWAY_CI2C_SHIM_H
#define RUNWAY_CI2C_SHIM_H

#include <errno.h>
#include <fcntl.h>
#include <i2c/smbus.h>
#include <linux/i2c-dev.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <unistd.h>

static inline int rw_i2c_open(const char *path, int address) {
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) return -errno;
    if (ioctl(fd, I2C_SLAVE, address) < 0) {
        int error = errno;
        close(fd);
        return -error;
    }
    return fd;
}

static inline int rw_i2c_read_block(int fd, uint8_t reg, uint8_t length, uint8_t *out) {
    int n = i2c_smbus_read_i2c_block_data(fd, reg, length, out);
    return n < 0 ? (errno ? -errno : n) : n;
}

static inline int rw_i2c_write_byte(int fd, uint8_t reg, uint8_t value) {
    int n = i2c_smbus_write_byte_data(fd, reg, value);
    return n < 0 ? (errno ? -errno : n) : 0;
}

static inline void rw_i2c_close(int fd) { (void)close(fd); }

#endif
