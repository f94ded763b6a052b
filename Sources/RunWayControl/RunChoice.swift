import RunWayCore

/// A run a runner can choose at the buttons (issue 27): a name and what START flies.
public struct ConfiguredRun: Sendable, Equatable {
    public var name: String
    /// nil: a free run (or a workout).
    public var mission: Mission?
    /// The workout START flies; with one, `mission` is nil.
    public var workout: Workout?

    public init(name: String, mission: Mission?, workout: Workout? = nil) {
        self.name = name
        self.mission = mission
        self.workout = workout
    }

    public static let freeRun = ConfiguredRun(name: "free run", mission: nil)
}

/// The runs a preflight gesture cycles through (PAUSE pressed briefly before START): a free run,
/// the configured `mission` when there is one, then `runs` in the file's order. Starts on the
/// configured mission (what START flew before there was a choice), else the free run.
public struct RunChoice: Sendable, Equatable {
    public let runs: [ConfiguredRun]
    public private(set) var index: Int

    public init(mission: Mission?, runs: [ConfiguredRun] = []) {
        var list = [ConfiguredRun.freeRun]
        if let mission { list.append(ConfiguredRun(name: "mission", mission: mission)) }
        list += runs
        self.runs = list
        index = mission == nil ? 0 : 1
    }

    public var chosen: ConfiguredRun { runs[index] }
    /// 1 for the first run: the pips the board plays for it.
    public var position: Int { index + 1 }

    /// The next run, round to the first after the last.
    @discardableResult
    public mutating func next() -> ConfiguredRun {
        index = (index + 1) % runs.count
        return chosen
    }
}

extension Reader {
    /// `runs`: `[{"name": "tempo", "mission": {...}}, {"name": "6x400", "workout": "wu 1km; …"}, …]`,
    /// at most 20, names 1–40 characters, each a different name, each a mission or a workout.
    func runs(zones: HeartRateZones) throws(Problem) -> [ConfiguredRun] {
        guard case .array(let items) = value else {
            throw fail("a list of runs, each {\"name\", \"mission\"}")
        }
        guard items.count <= 20 else {
            throw Problem(path: path, message: "at most 20 runs, got \(items.count)")
        }
        var runs: [ConfiguredRun] = []
        for (index, item) in items.enumerated() {
            let entry = child("\(index)", item)
            let keys = try entry.object(known: ["name", "mission", "workout"])
            guard let nameValue = keys["name"] else {
                throw Problem(path: entry.path, message: "a run needs a name")
            }
            let name = try nameValue.string("a name of 1–40 characters")
            guard name.count <= 40 else { throw nameValue.fail("a name of 1–40 characters") }
            guard !runs.contains(where: { $0.name == name }), name != ConfiguredRun.freeRun.name,
                name != "mission"
            else {
                throw Problem(path: nameValue.path, message: "\"\(name)\" names another run")
            }
            let mission = try keys["mission"].flatMap { m throws(Problem) in
                m.isNull ? nil : try m.mission(zones: zones)
            }
            let workout = try keys["workout"].flatMap { w throws(Problem) -> Workout? in
                guard !w.isNull else { return nil }
                let text = try w.string("a workout's text, as `runway start --workout` takes it")
                do throws(Workout.Invalid) {
                    return try Workout(parsing: text, zones: zones)
                } catch {
                    throw Problem(path: w.path, message: "\(error)")
                }
            }
            if mission != nil, workout != nil {
                throw Problem(path: entry.path, message: "a run has a mission or a workout, not both")
            }
            runs.append(ConfiguredRun(name: name, mission: mission, workout: workout))
        }
        return runs
    }
}
