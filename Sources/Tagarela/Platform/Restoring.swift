import Foundation

/// A data folder being rebuilt by `tagarela restore` holds a marker file until the restore has finished,
/// so a server started too early (by hand, or by systemd restarting it) refuses instead of creating an
/// empty database that Litestream would then replicate over the good copy.
public enum Restoring {
    public static func markerPath(_ configuration: AppConfiguration) -> String {
        configuration.dataDirectory + "/db/RESTORING"
    }

    public struct InProgress: Error, CustomStringConvertible {
        public let dataDirectory: String
        public let marker: String
        public var description: String {
            "the data folder \(dataDirectory) is being restored by `tagarela restore`; start the server when it has "
                + "finished (if that restore was stopped, run it again into a fresh folder, or delete \(marker))"
        }
    }

    /// Throws when `tagarela restore` is rebuilding this data folder.
    public static func refuseIfInProgress(_ configuration: AppConfiguration) throws {
        let marker = markerPath(configuration)
        if FileManager.default.fileExists(atPath: marker) {
            throw InProgress(dataDirectory: configuration.dataDirectory, marker: marker)
        }
    }
}
