import RunWayCore
import RunWayHardware

/// The Korean phrase table: short clauses separated by commas, every number in Hangul words —
/// Sino-Korean for minutes, seconds and distances (오 분 삼십팔 초), native for the countdown
/// and hours (셋, 한 시간). GPS is written 지피에스: in Latin letters espeak-ng switches to its
/// English voice mid-sentence and reads it with an English accent (listening test, issue 24).
struct KoreanPhrases {
    /// The unit distances and paces are said in (`DistanceUnit`).
    var unit = DistanceUnit.kilometre

    func text(_ phrase: Phrase) -> String {
        switch phrase {
        case .countdown(let n): KoreanNumbers.native(n)
        case .rotate: "출발"
        case .split(let order, let time, let pace):
            // A full kilometre's time is its pace: said once.
            Self.clauses(
                KoreanNumbers.sino(order) + (unit == .kilometre ? " 킬로미터" : " 마일"),
                pace.flatMap(self.pace) ?? Self.paceWords(time))
        case .lastSplit(let metres, let time, let pace):
            Self.clauses(
                "마지막 " + distanceWords(metres), Self.duration(time),
                pace.flatMap(self.pace).map { "페이스 " + $0 })
        case .sinkRate(let pace, let target): alert("페이스 느림", pace, target)
        case .overspeed(let pace, let target): alert("페이스 빠름", pace, target)
        case .minimums(let metres): Self.clauses("목표까지 " + Self.distance(max(0, metres)) + " 남음")
        case .minimumsTime(let seconds): Self.clauses("목표까지 " + Self.duration(max(0, seconds)) + " 남음")
        case .heartRateHigh(let bpm, let low, let high): Self.heartRate("심박 높음", bpm, low, high)
        case .heartRateLow(let bpm, let low, let high): Self.heartRate("심박 낮음", bpm, low, high)
        case .missionComplete(let time): Self.clauses("미션 완료", Self.duration(time))
        case .pause(let reason): Self.pause(reason)
        case .resume: "다시 시작"
        case .signalLost: "지피에스 신호 끊김, 일시 정지"
        case .gpsBack: "지피에스 신호 복구, 다시 시작"
        case .touchdown(let metres, let time, let pace):
            Self.clauses(
                "운동 종료", distanceWords(metres), Self.duration(time),
                pace.flatMap(self.pace).map { "평균 페이스 " + $0 })
        case .tooShort: "기록되지 않음, 너무 짧음"
        case .gpsReady: "지피에스 준비 완료"
        case .fault(let fault): Self.fault(fault)
        case .exportDone: "내보내기 완료, USB를 빼도 됩니다"
        case .exportFailed: "내보내기 실패, 기록은 보드에 남아 있습니다"
        case .status(let metres, let time, let pace, let ahead):
            Self.clauses(
                distanceWords(metres), Self.duration(time), pace.flatMap(self.pace).map { "페이스 " + $0 },
                ahead.flatMap(Self.versus))
        case .voiceCheck: "음성 확인, 잘 들리나요"
        case .text(let text): text
        case .sensorLost(let sensor): Self.sensorName(sensor) + " 연결 끊김"
        case .sensorBack(let sensor): Self.sensorName(sensor) + " 다시 연결됨"
        case .stillPaused: "아직 일시 정지 중, 시작 버튼을 누르면 이어서 기록"
        case .runChosen(let name, let position):
            // The two runs the board names itself, in Korean; a configured run by its own name.
            Self.clauses(
                KoreanNumbers.sino(position) + " 번", ["free run": "자유 달리기", "mission": "미션"][name] ?? name)
        case .standstill(let minutes, let landing):
            Self.clauses(
                Self.duration(Double(minutes * 60)) + " 동안 멈춤",
                landing ? "운동을 마쳤습니다" : "끝내려면 종료 버튼을 길게 누르세요")
        case .workoutStep(let index, let count, let step): workoutStep(index, count, step)
        case .workoutComplete: "훈련 완료"
        case .lap(let number, let time, let pace):
            Self.clauses(
                "랩 " + KoreanNumbers.sino(number), Self.duration(time),
                pace.flatMap(self.pace).map { "페이스 " + $0 })
        }
    }

    /// "열네 단계 중 이 단계, 인터벌, 사백 미터, 페이스 …": the step, what to run and how fast.
    func workoutStep(_ index: Int, _ count: Int, _ step: Workout.Step) -> String {
        let kind: String =
            switch step.kind {
            case .warmup: "워밍업"
            case .work: "인터벌"
            case .recover: "회복"
            case .cooldown: "쿨다운"
            case .run: "달리기"
            case .walk: "걷기"
            }
        let length: String =
            switch step.length {
            case .distance(let metres): distanceWords(metres)
            case .duration(let seconds): Self.duration(seconds)
            }
        return Self.clauses(
            KoreanNumbers.sino(count) + " 단계 중 " + KoreanNumbers.sino(index + 1) + " 단계", kind, length,
            step.pace.flatMap { pace($0.targetPace) }.map { "페이스 " + $0 },
            step.heartRate.map {
                "심박 " + KoreanNumbers.sino(Int($0.low.rounded())) + "에서 "
                    + KoreanNumbers.sino(Int($0.high.rounded()))
            })
    }

    static func sensorName(_ sensor: Phrase.Sensor) -> String {
        switch sensor {
        case .heartRateStrap: "심박 센서"
        case .footpod: "풋팟"
        }
    }

    static func clauses(_ parts: String?...) -> String { parts.compactMap { $0 }.joined(separator: ", ") }

    func alert(_ name: String, _ pace: Double?, _ target: Double) -> String {
        Self.clauses(name, pace.flatMap(self.pace), self.pace(target).map { "목표 " + $0 })
    }

    /// "심박 높음, 백육십이, 목표 백사십에서 백오십오": the alert, the heart rate judged (left
    /// out when there is none) and the band, in Sino-Korean numbers.
    static func heartRate(_ name: String, _ bpm: Double?, _ low: Double, _ high: Double) -> String {
        func beats(_ value: Double) -> String? {
            SpokenNumber.whole(value).flatMap { $0 > 0 ? KoreanNumbers.sino($0) : nil }
        }
        return clauses(
            name, bpm.flatMap(beats), beats(low).flatMap { l in beats(high).map { "목표 \(l)에서 \($0)" } })
    }

    static func pause(_ reason: PauseReason) -> String {
        switch reason {
        case .stopped: "자동 일시 정지"
        case .manual: "일시 정지"
        case .signalLost: "지피에스 신호 끊김, 일시 정지"
        case .vehicle: "차량 이동, 일시 정지"
        }
    }

    /// What to do about each fault (README, "The faults a runner must hear about").
    static func fault(_ fault: BoardFault) -> String {
        switch fault {
        case .gpsdUnreachable: "지피에스 서비스 응답 없음, 계속 연결 시도 중"
        case .noFixForLong: "지피에스 위치 오래 없음, 하늘이 트인 곳으로 이동하세요"
        case .barometerMissing: "기압계 끊김, 고도 없이 계속 기록합니다"
        case .storage: "저장 공간 오류, 기록 일시 중단, 자동으로 다시 시작됩니다"
        case .batteryLow: "배터리 부족, 운동 후 충전하세요"
        case .batteryCritical: "배터리 매우 부족, 기록을 저장했습니다, 지금 충전하세요"
        case .audio: "오디오 장치 오류, 이제부터 부저로 알립니다"
        }
    }

    /// A pace (seconds per kilometre) said per the runner's unit.
    func pace(_ secondsPerKm: Double?) -> String? { Self.paceWords(secondsPerKm.map(unit.pace)) }

    /// A distance in the runner's unit (`distance`).
    func distanceWords(_ metres: Double) -> String { Self.distance(metres, in: unit) }

    /// A pace as minutes and seconds: 338 → "오 분 삼십팔 초", 300 → "오 분"; nil for no pace
    /// worth saying.
    static func paceWords(_ secondsPerKm: Double?) -> String? {
        guard let total = SpokenNumber.pace(secondsPerKm) else { return nil }
        return minutesSeconds(total)
    }

    /// "이십칠 분 십이 초", "한 시간 사 분" (past an hour the seconds are rounded away, as in
    /// English), "영 초".
    static func duration(_ time: Double) -> String {
        let total = SpokenNumber.seconds(time)
        guard total >= 3600 else { return minutesSeconds(total) }
        let minutesTotal = (total + 30) / 60
        let hours = KoreanNumbers.native(minutesTotal / 60, beforeCounter: true) + " 시간"
        let minutes = minutesTotal % 60
        return minutes > 0 ? hours + " " + KoreanNumbers.sino(minutes) + " 분" : hours
    }

    static func minutesSeconds(_ total: Int) -> String {
        let minutes = total / 60
        let seconds = total % 60
        if minutes == 0 { return KoreanNumbers.sino(seconds) + " 초" }
        let said = KoreanNumbers.sino(minutes) + " 분"
        return seconds > 0 ? said + " " + KoreanNumbers.sino(seconds) + " 초" : said
    }

    /// 5180 m → "오 점 일팔 킬로미터" (two decimals, a trailing zero dropped), under a kilometre
    /// in metres: "팔백 미터".
    static func distance(_ metres: Double, in unit: DistanceUnit = .kilometre) -> String {
        guard let centi = SpokenNumber.centikilometres(metres * 1000 / unit.metres) else {
            return KoreanNumbers.sino(max(0, SpokenNumber.whole(metres) ?? 0)) + " 미터"
        }
        let name = unit == .kilometre ? " 킬로미터" : " 마일"
        let whole = KoreanNumbers.sino(centi / 100)
        let hundredths = centi % 100
        if hundredths == 0 { return whole + name }
        let decimals =
            hundredths % 10 == 0
            ? KoreanNumbers.digits(hundredths / 10, count: 1) : KoreanNumbers.digits(hundredths, count: 2)
        return whole + " 점 " + decimals + name
    }

    /// 십이 초 빠름 (ahead), 일 분 오 초 느림 (behind), or 목표 페이스 within ±2 s, as in English;
    /// nil for a broken value.
    static func versus(_ ahead: Double) -> String? {
        guard ahead.isFinite else { return nil }
        guard abs(ahead) > 2 else { return "목표 페이스" }
        return duration(abs(ahead)) + (ahead > 0 ? " 빠름" : " 느림")
    }
}
