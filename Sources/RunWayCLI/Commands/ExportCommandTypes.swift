extension RunWayCommand {
    /// `runway export`.
    struct Export: Subcommand {
        static let declaration = CommandDeclaration(
            "export", group: .logbook,
            abstract: "write the logbook's flights to DIR/RUNWAY/ as FIT, GPX and TCX files, and the viewer",
            discussion:
                "DIR is usually a USB stick's mount point. Files are named by local date and time; nothing partial ever has a final name. A repeat writes only flights the folder does not have yet (--all: every flight again); --verify reads each file back. RUNWAY/index.html is an offline viewer of every run (logbook, calendar, summary, Flight Data Recorder) that opens in any browser without a network.",
            options: [
                .init(
                    "--to", value: "DIR", help: "where RUNWAY/ is written (a USB stick's mount point)",
                    required: true),
                .init(
                    "--since", value: "DATE", help: "only flights from this day (2026-10-03) or UTC time on"),
                .init(
                    "--format", value: "LIST",
                    help: "fit, gpx, tcx, html (the offline viewer), separated by commas (default all four)"),
                .init("--all", help: "write every flight again, not only new ones"),
                .init("--verify", help: "read each written file back and check it"),
                .json,
                .logbookOrConfigured,
            ] + CommandDeclaration.Option.zone,
            examples: [
                "runway export --to /media/RUNWAY",
                "runway export --to /tmp/out --format gpx --since 2026-10-01",
            ])

        let request: ExportCommand.Request

        init(_ arguments: ParsedArguments) throws(CLIError) {
            var request = ExportCommand.Request(destination: arguments.value("--to")!)
            request.logbook = arguments.value("--logbook")
            request.configuration = arguments.configurationPath
            request.zone = try arguments.zone()
            request.since = arguments.value("--since")
            request.formats = arguments.value("--format")
            request.all = arguments.flag("--all")
            request.verify = arguments.flag("--verify")
            request.json = arguments.flag("--json")
            self.request = request
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            try ExportCommand.run(request, console: console)
        }
    }

    /// `runway drive`.
    struct Drive: Subcommand {
        static let declaration = CommandDeclaration(
            "drive", group: .logbook,
            abstract: "build the FAT image (label RUNWAY) the wearable shows a computer over USB",
            discussion:
                "The image holds RUNWAY/ with every run as FIT, GPX and TCX. runway-drive.service rebuilds it after each landing and runway-gadget.service serves it read-only as a USB drive.",
            options: [
                .init("--image", value: "FILE", help: "the image to (re)build", required: true),
                .logbookOrConfigured,
                .init(
                    "--config", value: "FILE",
                    help: "runwayd's configuration (default /etc/runway/runway.json)"),
            ],
            examples: ["runway drive --image /var/lib/runway/usb-drive.img"])

        let image: String
        let logbook: String?
        let configuration: String

        init(_ arguments: ParsedArguments) throws(CLIError) {
            image = arguments.value("--image")!
            logbook = arguments.value("--logbook")
            configuration = arguments.configurationPath
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            try ExportCommand.drive(
                image: image, logbook: logbook, configurationPath: configuration, console: console)
        }
    }
}
