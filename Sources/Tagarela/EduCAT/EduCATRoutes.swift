import Foundation
import GRDB
import HTTPServer

/// eduCAT (seed 002): the child's menus, lessons, games and challenges, the results they post, and
/// the results and settings page for the patient's tutors and clinicians.
enum EduCATRoutes: Feature {
    static let templates = ["educat/menu", "educat/lesson", "educat/game", "educat/records", "educat/information",
                            "educat/results", "educat/settings"]

    static func add(to router: inout Router<Route>) {
        router.add(EduCATEndpoints.menu) { $0.read(menu) }
        router.add(EduCATEndpoints.screen) { $0.read(screen) }
        router.add(EduCATEndpoints.activity) { $0.read(activity) }
        router.add(EduCATEndpoints.postResult) { $0.write(postResult) }
        router.add(EduCATEndpoints.results) { $0.read(results) }
        router.add(EduCATEndpoints.settings) { $0.read(settings) }
        router.add(EduCATEndpoints.saveSettings) { $0.write(saveSettings) }
        router.add(EduCATEndpoints.postAnswers) { $0.write(postAnswers) }
        router.add(EduCATEndpoints.addItem) { $0.slow(.media, makeClips).write(addItem) }
        router.add(EduCATEndpoints.removeItem) { $0.write(removeItem) }
        router.add(EduCATEndpoints.itemPicture) { $0.read(itemPicture) }
        EduCATClipRoutes.add(to: &router)
    }

    /// The child's pack (see `EduCATLanguage.pack`) with the clinician's added words and letters,
    /// settings, records and levels; `voiced`: saying the patient's chosen voice where it can (`EduCATVoice`).
    static func player(_ context: RequestContext, _ db: Database, voiced: Bool = false) throws -> (pack: EduCATPack, player: EduCATQueries.Player) {
        let actor = try context.requireActor()
        let content = try EduCATContent.shared(resourcesDirectory: context.configuration.resourcesDirectory)
        let player = try EduCATQueries.player(patientId: actor.userId, interface: context.locale.rawValue, db)
        let pack = content.pack(player.language).adding(player.added, patientId: actor.userId)
        guard voiced else { return (pack, player) }
        let voice = PatientVoice(chosen: player.access.settings.voice, installed: context.speech.voices)
        return (EduCATVoice.apply(pack, voice: voice, context.speech, making: context.backgroundClips), player)
    }

    /// A posted form's fields, the first value of each name.
    static func firstValues(_ form: Parameters) -> [String: String] {
        Dictionary(form.pairs.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    @Sendable static func menu(_ context: RequestContext, _ db: Database) throws -> Reply {
        let (pack, player) = try player(context, db, voiced: true)
        let entries = [("numbers", EduCATArea.numbers.rawValue), ("letters", "letters"), ("contaCops", EduCATArea.contaCops.rawValue),
                       ("records", "records"), ("information", "information")]
        return .page("educat/menu", title: "educat_title", EduCATMenuPage(
            bar: EduCATBar(pack, title: pack.label("title"), back: DashboardEndpoints.patient.path(), help: .menu, context.t),
            entries: entries.map { EduCATMenuPage.Entry(key: $0.0, label: pack.label($0.0), href: EduCATEndpoints.screen.path($0.1)) },
            play: EduCATPlayView(pack: pack, access: player.access)))
    }

    @Sendable static func screen(_ context: RequestContext, _ db: Database, _ name: String) throws -> Reply {
        let (pack, player) = try player(context, db, voiced: true)
        let t = context.t
        let home = EduCATEndpoints.menu.path()
        let play = EduCATPlayView(pack: pack, access: player.access)
        switch name {
        case "letters":
            return .page("educat/menu", title: "educat_title", EduCATMenuPage(
                bar: EduCATBar(pack, title: pack.label("letters"), back: home, help: .letters, t),
                entries: [EduCATArea.vowels, .alphabet].map {
                    EduCATMenuPage.Entry(key: $0.labelKey, label: pack.label($0.labelKey), href: EduCATEndpoints.screen.path($0.rawValue))
                }, play: play))
        case "records":
            return .page("educat/records", title: "educat_title", EduCATRecordsPage(
                bar: EduCATBar(pack, title: pack.label("records"), back: home, help: .records, t),
                records: [EduCATArea.numbers, .alphabet, .vowels, .contaCops].map {
                    EduCATRecordsPage.Record(area: $0.rawValue, label: pack.label($0.labelKey), value: player.record($0))
                }, play: play))
        case "information":
            return .page("educat/information", title: "educat_title", EduCATInformationPage(
                bar: EduCATBar(pack, title: pack.label("information"), back: home, help: nil, t),
                text: pack.information, clip: pack.clipURL(pack.information), listen: pack.label("listen"), play: play))
        default:
            guard let area = EduCATArea(rawValue: name) else { throw AppError.notFound }
            let help: EduCATScreen = switch area {
            case .numbers: .numbers
            case .vowels: .vowels
            case .alphabet: .alphabet
            case .contaCops: .contaCops
            }
            let back = area == .vowels || area == .alphabet ? EduCATEndpoints.screen.path("letters") : home
            return .page("educat/menu", title: "educat_title", EduCATMenuPage(
                bar: EduCATBar(pack, title: pack.label(area.labelKey), back: back, help: help, t),
                entries: ["lesson", "game"].map {
                    EduCATMenuPage.Entry(key: $0, label: pack.label($0), href: EduCATEndpoints.activity.path(area.rawValue, $0))
                }, play: play))
        }
    }

    @Sendable static func activity(_ context: RequestContext, _ db: Database, _ screen: String, _ mode: String) throws -> Reply {
        guard let area = EduCATArea(rawValue: screen) else { throw AppError.notFound }
        let (pack, player) = try player(context, db, voiced: true)
        let back = EduCATEndpoints.screen.path(area.rawValue)
        switch mode {
        case "lesson":
            return .page("educat/lesson", title: "educat_title", EduCATLessonPage(
                area: area, pack: pack, level: EduCATLevel.of(area, number: player.levels[area] ?? 1), bar: EduCATBar(pack, title: pack.label(area.labelKey) + " · " + pack.label("lesson"), back: back,
                                                       help: area == .contaCops ? .contaCopsLesson : .lesson, context.t),
                play: EduCATPlayView(pack: pack, access: player.access)))
        case "game", "challenge":
            let mode: EduCATMode = mode == "game" ? .normal : .challenge
            let help: EduCATScreen = mode == .challenge ? .challenge : area == .contaCops ? .contaCopsGame : .game
            let title = pack.label(area.labelKey) + " · " + pack.label(mode == .normal ? "game" : "challenge")
            return .page("educat/game", title: "educat_title", EduCATGamePage(
                area: area, mode: mode, pack: pack, level: EduCATLevel.of(area, number: player.levels[area] ?? 1),
                settings: player.settings, record: player.record(area),
                bar: EduCATBar(pack, title: title, back: back, help: help, context.t),
                play: EduCATPlayView(pack: pack, access: player.access)))
        default:
            throw AppError.notFound
        }
    }

    /// A finished game, or an abandoned challenge with at least one answer. Malformed values are
    /// refused with 400, values no game could produce with 422, and so is a result that disagrees with
    /// its game's answers (or has none); nothing is stored either way. The page sends the game's answers
    /// with its result (`answers`, as a batch), stored first in the same transaction, so a result sent
    /// from a page going away, or before a batch it overtook, still finds them. A result posted again
    /// under the same game key is answered as before and not stored twice.
    @Sendable static func postResult(_ context: RequestContext, _ db: Database) throws -> Reply {
        let actor = try context.requireActor()
        let fields = firstValues(context.request.form)
        guard case .success(let result) = EduCATResult.parse(fields) else {
            return Reply(try .json(["error": "invalid result"], status: .badRequest))
        }
        let level = fields["level"].flatMap { Int($0) }
        guard let key = fields["key"], EduCATGameKey.isValid(key) else {
            return Reply(try .json(["error": "invalid result"], status: .badRequest))
        }
        if let problem = EduCATPlausibility.check(result, level: level) {
            return Reply(try .json(["error": "implausible result", "reason": problem.rawValue], status: .unprocessableContent))
        }
        if fields["answers"] != nil {
            guard let batch = EduCATAnswer.parseBatch(fields), batch.area == result.area, batch.mode == result.mode else {
                return Reply(try .json(["error": "invalid answers"], status: .badRequest))
            }
            guard try storeAnswers(batch, context, db) != nil else {
                return Reply(try .json(["error": "unknown item"], status: .unprocessableContent))
            }
        }
        let counts = try EduCATStore.answerCounts(patientId: actor.userId, gameKey: key, db)
        guard EduCATPlausibility.agrees(result, answered: counts.answered, right: counts.right) else {
            return Reply(try .json(["error": "implausible result", "reason": "answers"], status: .unprocessableContent))
        }
        let (pack, _) = try player(context, db)
        let firstGame = try !EduCATStore.hasPlayed(patientId: actor.userId, db)
        let stored = try EduCATStore.store(result, gameKey: key, level: level, patientId: actor.userId, language: pack.language,
                                           assistedBy: actor.supervisorId, at: context.now, db)
        // The offline listing (kept whole by the read cache) adds the games once the child has played one.
        if firstGame { context.caches.pages.invalidateAll() }
        return Reply(try .json(["record": "\(stored.record)", "newRecord": stored.isNew ? "true" : "false"]))
    }

    /// A batch of per-item answers (answers.js). Answers the area's level after it, which the rule
    /// of automatic promotion may have raised.
    @Sendable static func postAnswers(_ context: RequestContext, _ db: Database) throws -> Reply {
        guard let batch = EduCATAnswer.parseBatch(firstValues(context.request.form)) else {
            return Reply(try .json(["error": "invalid answers"], status: .badRequest))
        }
        guard let level = try storeAnswers(batch, context, db) else {
            return Reply(try .json(["error": "unknown item"], status: .unprocessableContent))
        }
        return Reply(try .json(["level": "\(level.number)", "levelKey": level.key]))
    }

    /// Stores a batch of the signed-in child's answers (each once); nil when it names an item the game
    /// does not have. Returns the area's level after it.
    static func storeAnswers(_ batch: EduCATAnswer.Batch, _ context: RequestContext, _ db: Database) throws -> EduCATLevel? {
        let actor = try context.requireActor()
        let (pack, player) = try player(context, db)
        let expected: (String) -> String? = batch.area == .contaCops
            ? { asked in pack.words.first { $0.word == asked }.map { "\($0.syllableCount)" } }
            : { asked in EduCATLevel.levels(batch.area).flatMap { $0.items(pack) }
                .contains { $0.symbol == asked } ? asked : nil }
        return try EduCATStore.store(batch, expected: expected, patientId: actor.userId, language: pack.language,
                                     promotion: player.settings.promotion, at: context.now, db)
    }

    @Sendable static func results(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let data = try EduCATQueries.results(patientId: patientId, visibleTo: actor, db)
        return .page("educat/results", title: "educat_results_title", EduCATResultsPage(data, isClinician: actor.role == .clinician, context: context))
    }

    @Sendable static func settings(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        return settingsPage(try EduCATQueries.settings(patientId: patientId, visibleTo: actor, interface: context.locale.rawValue, db),
                            form: nil, itemForm: nil, context: context)
    }

    static func settingsPage(_ data: EduCATQueries.Settings, form: FormState?, itemForm: FormState?, clipError: (Int64, String)? = nil,
                             status: Status = .ok, context: RequestContext) -> Reply {
        .page("educat/settings", title: "educat_settings_title",
              EduCATSettingsPage(data, form: form, itemForm: itemForm, clipError: clipError, context: context), status: status)
    }

    @Sendable static func saveSettings(_ context: RequestContext, _ db: Database, _ patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let patient = try PatientScope.find(patientId, visibleTo: actor, db)
        var form = FormState(context.request.form, fields: EduCATSettingsForm.fields)
        let parsed = EduCATSettingsForm.read(&form, current: try EduCATStore.settings(patientId: patient.userId, db), t: context.t)
        guard !form.hasErrors, let (settings, levels) = parsed else {
            return settingsPage(try EduCATQueries.settings(patientId: patient.userId, visibleTo: actor, interface: context.locale.rawValue, db),
                                form: form, itemForm: nil, status: .unprocessableContent, context: context)
        }
        try EduCATStore.save(settings, levels: levels, patientId: patient.userId, by: actor.userId, at: context.now,
                             audit: context.audit, db)
        return .redirect(to: EduCATEndpoints.settings.path(patient.userId), flash: "educat_settings_saved")
    }

    /// The clips of a word or letter the clinician adds, made with the chosen pack's voice before the
    /// write (the form is checked again in the write, where the patient is known). A recorded voice sent
    /// with it is normalised by ffmpeg (`SpeechAudio.normalise`) and plays instead of the generated one;
    /// the generated clip is made all the same, so the clinician can go back to it. A word's own picture
    /// is checked and converted as a symbol's (`MediaStore`); one kept from a warning is taken back.
    @Sendable static func makeClips(_ context: RequestContext, _ patientId: Int64) throws -> Step<EduCATItemForm.Prepared> {
        let content = try EduCATContent.shared(resourcesDirectory: context.configuration.resourcesDirectory)
        var form = FormState(context.request.form, fields: EduCATItemForm.fields, limits: EduCATItemForm.limits)
        let upload = context.request.file(named: "audio").flatMap { $0.size > 0 ? $0 : nil }
        let image = context.request.file(named: "image").flatMap { $0.size > 0 ? $0 : nil }
        let kept = MediaStore.isEduCATPicture(form["keptPicture"])
            && FileManager.default.fileExists(atPath: context.configuration.mediaDirectory + "/" + form["keptPicture"])
        var picture: String?
        if let image {
            do { picture = try context.media.storeEduCATPicture(image) } catch {
                form.fail("image", (error as? MediaStore.Failure ?? .unreadable).message(context.t, context.format))
            }
        } else if kept {
            picture = form["keptPicture"]
        }
        let wordPicture = form["area"] == EduCATArea.contaCops.rawValue ? picture : nil
        guard let item = EduCATItemForm.read(&form, pictograms: context.pictograms, ownPicture: wordPicture != nil, t: context.t),
              !form.hasErrors else {
            // A file input cannot be filled in again: say so rather than lose the recording silently.
            if upload != nil { form.fail("audio", context.t["ep_error_audio_again"]) }
            if image != nil, let picture { context.media.remove(picture) }
            return .next(.refused(form))
        }
        let pack = content.pack(item.language)
        func refused(_ field: String, _ message: String) -> Step<EduCATItemForm.Prepared> {
            form.fail(field, message)
            if image != nil, let picture { context.media.remove(picture) }
            return .next(.refused(form))
        }
        let generated: String
        do {
            generated = try context.speech.clip(text: item.spoken, voice: pack.voice)
            if let word = item.word { _ = try context.speech.clip(text: word.syllabifiedReading, voice: pack.voice) }
        } catch {
            return refused("text", context.t["educat_error_clip"])
        }
        guard let upload else { return .next(.ready(item, clip: generated, picture: wordPicture)) }
        do {
            return .next(.ready(item, clip: try context.speech.normalise(recordingAt: upload.temporaryPath), picture: wordPicture))
        } catch {
            return refused("audio", context.t["ep_error_audio"])
        }
    }

    /// Adds the word or letter. A word the game already has (the pack's, or one added before) is
    /// not added until the teacher confirms: the form comes back as typed, her picture kept, with the
    /// warning and a box to tick; confirmed, hers replaces it for this child.
    @Sendable static func addItem(_ context: RequestContext, _ db: Database, _ prepared: EduCATItemForm.Prepared,
                                  _ patientId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let patient: Patient
        do { patient = try PatientScope.find(patientId, visibleTo: actor, db) } catch {
            if case .ready(_, let clip, let picture) = prepared {
                EduCATClips.discard(clip, context.speech)
                context.media.remove(picture)
            }
            throw error
        }
        func refuse(_ form: FormState) throws -> Reply {
            settingsPage(try EduCATQueries.settings(patientId: patient.userId, visibleTo: actor, interface: context.locale.rawValue, db),
                         form: nil, itemForm: form, status: .unprocessableContent, context: context)
        }
        switch prepared {
        case .refused(let form): return try refuse(form)
        case .ready(let item, let clip, let picture):
            var form = FormState(context.request.form, fields: EduCATItemForm.fields, limits: EduCATItemForm.limits)
            let existing = try EduCATStore.addedItem(area: item.area.rawValue, text: item.text, patientId: patient.userId, db)
            let content = try EduCATContent.shared(resourcesDirectory: context.configuration.resourcesDirectory)
            let inPack = item.area == .contaCops && content.pack(item.language).words.contains { $0.word == item.text }
            if item.area == .contaCops, existing != nil || inPack, form["confirm"] != "1" {
                EduCATClips.discard(clip, context.speech)
                form.values["keptPicture"] = picture ?? ""
                form.values["confirm"] = ""
                form.fail("confirm", context.t("educat_warning_word_exists", ["word": item.text]))
                if context.request.file(named: "audio").map({ $0.size > 0 }) == true { form.fail("audio", context.t["ep_error_audio_again"]) }
                return try refuse(form)
            }
            let added = EduCATStore.AddedItem(id: 0, area: item.area.rawValue, text: item.text, spoken: item.spoken,
                                              syllables: item.word.map { $0.syllables.joined(separator: "-") },
                                              pictogram: item.word.flatMap { $0.pictogram.isEmpty ? nil : $0.pictogram }, clip: clip,
                                              language: item.language, picture: picture)
            if item.area == .contaCops, let existing {
                // Confirmed: hers replaces the word added before.
                _ = try EduCATStore.removeItem(existing.id, patientId: patient.userId, audit: context.audit, db)
                if existing.clip != clip { EduCATClips.discard(existing.clip, context.speech) }
                if existing.picture != picture { context.media.remove(existing.picture) }
            }
            guard try EduCATStore.add(added, patientId: patient.userId, by: actor.userId, at: context.now, audit: context.audit, db) else {
                EduCATClips.discard(clip, context.speech)
                context.media.remove(picture)
                form.fail("text", context.t["educat_error_item_twice"])
                return try refuse(form)
            }
            return .redirect(to: EduCATEndpoints.settings.path(patient.userId), flash: "educat_item_added")
        }
    }

    /// The teacher's own picture of a word: to the child it belongs to, and the adults linked to them.
    @Sendable static func itemPicture(_ context: RequestContext, _ db: Database, _ patientId: Int64, _ itemId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        if actor.role == .patient {
            guard actor.userId == patientId else { throw AppError.notFound }
        } else {
            _ = try PatientScope.find(patientId, visibleTo: actor, db)
        }
        guard let picture = try EduCATStore.picture(ofItem: itemId, patientId: patientId, db), MediaStore.isEduCATPicture(picture),
              let response = context.media.response(for: picture, request: context.request) else { throw AppError.notFound }
        return Reply(response)
    }

    @Sendable static func removeItem(_ context: RequestContext, _ db: Database, _ patientId: Int64, _ itemId: Int64) throws -> Reply {
        let actor = try context.requireActor()
        let patient = try PatientScope.find(patientId, visibleTo: actor, db)
        let clip = try EduCATStore.clip(ofItem: itemId, patientId: patient.userId, db)
        let picture = try EduCATStore.picture(ofItem: itemId, patientId: patient.userId, db)
        guard try EduCATStore.removeItem(itemId, patientId: patient.userId, audit: context.audit, db) else { throw AppError.notFound }
        if let clip { EduCATClips.discard(clip, context.speech) }
        context.media.remove(picture)
        return .redirect(to: EduCATEndpoints.settings.path(patient.userId), flash: "educat_item_removed")
    }
}
