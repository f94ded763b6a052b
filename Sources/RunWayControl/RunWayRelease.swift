/// The release this build is: one version for `runway --version`, `runwayd --version` and the
/// Debian package (scripts/version.sh reads it from this line; scripts/make-deb.sh checks the
/// built binaries say it). Change it here only.
public enum RunWayRelease {
    public static let version = "0.1.0"
}
