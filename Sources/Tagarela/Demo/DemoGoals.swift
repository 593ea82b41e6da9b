import Foundation
import GRDB

/// Goals in every state for Carla, Davi and Elisa, set against their demo taps, sentences and meals so
/// that the record tells a consistent story. Targets are read off the seeded data (a little below what
/// was measured for a goal on track or met, well above it for one behind or missed), so the states hold
/// whatever the exact demo counts are.
enum DemoGoals {
    struct People {
        let ana: Int64, nadia: Int64, bruno: Int64, beatriz: Int64
        let carla: Int64, davi: Int64, elisa: Int64
        /// The trainer and his two clients.
        var dani: Int64? = nil, fernanda: Int64? = nil, gustavo: Int64? = nil
    }

    static func seed(_ db: Database, _ people: People, now: Date) throws {
        let today = ISODate.string(now, timeZone: TimeZone(identifier: "UTC")!)
        func day(_ offset: Int) -> String { ISODate.adding(offset, to: today) }
        func actor(_ id: Int64) throws -> Actor { Actor(user: try User.fetchOne(db, key: id)!) }
        func audit(_ actor: Actor) -> AuditContext {
            AuditContext(actorId: actor.userId, actorName: actor.displayName, clientAddress: "demo", now: now)
        }
        var draftId: Int64 = -1
        /// What the record measures today for a goal like `input`.
        func measured(_ input: GoalInput, patient: Int64) throws -> Double? {
            draftId -= 1
            var draft = Goal(id: draftId, patientId: patient, kind: input.kind.rawValue, title: input.title, direction: "atLeast",
                             target: 1, startsOn: input.startsOn, endsOn: input.endsOn, createdAt: now, updatedAt: now, version: 1)
            input.apply(to: &draft)
            return try GoalQueries.measure([draft], today: today, timeZone: TimeZone(identifier: "UTC")!, db)[draftId]?.measured
        }
        enum Aim { case below, above }
        @discardableResult
        func goal(_ patient: Int64, by clinician: Actor, _ input: GoalInput, aim: Aim?, cap: Double = 5_000) throws -> Goal? {
            var input = input
            if let aim {
                let value = try measured(input, patient: patient) ?? 0
                input.target = switch aim {
                case .below: max(1, (value * 0.7).rounded(.down))
                case .above: min(cap, (value * 1.6 + 3).rounded(.up))
                }
            }
            return try Goals.create(input, patientId: patient, by: clinician, audit: audit(clinician), db)
        }
        let ana = try actor(people.ana), nadia = try actor(people.nadia)
        let bruno = try actor(people.bruno), beatriz = try actor(people.beatriz)

        // The symbols each child taps most, and their categories (none without the demo boards).
        func mostTapped(_ patient: Int64) throws -> (symbol: Int64, category: Int64)? {
            guard let row = try Row.fetchOne(db, sql: """
                SELECT s.id, s.categoryId FROM tapDay t JOIN symbol s ON s.id = t.symbolId
                WHERE t.patientId = ? GROUP BY s.id ORDER BY sum(t.n) DESC, s.id LIMIT 1
                """, arguments: [patient]) else { return nil }
            return (row[0], row[1])
        }

        // Carla: speech therapy with Ana, nutrition with Nádia.
        if let tapped = try mostTapped(people.carla) {
            try goal(people.carla, by: ana, GoalInput(kind: .symbolTaps, title: "Usa a prancha para pedir", target: 15,
                                                      startsOn: day(3), endsOn: day(60), reviewOn: day(30), symbolId: tapped.symbol),
                     aim: nil)
            let onTrack = try goal(people.carla, by: ana, GoalInput(kind: .categoryTaps, title: "Fala das coisas de que gosta", target: 1,
                                                                    startsOn: day(-20), endsOn: day(40), reviewOn: day(10),
                                                                    categoryId: tapped.category), aim: .below)
            if let onTrack {
                // An edit in the history: the review moved a week later.
                var edited = GoalInput(kind: .categoryTaps, title: "Fala das coisas de que gosta na escola", target: onTrack.target,
                                       startsOn: onTrack.startsOn, endsOn: onTrack.endsOn, reviewOn: day(17), categoryId: tapped.category)
                edited.direction = .atLeast
                try Goals.update(onTrack.id!, patientId: people.carla, from: onTrack.version, to: edited, audit: audit(ana), db)
                try Goals.addNote(goalId: onTrack.id!, body: "Na escola ela mostrou a prancha para a professora sozinha.", by: bruno,
                                  audit: audit(bruno), db)
                try Goals.addNote(goalId: onTrack.id!, body: "Manter; introduzir a categoria de ações na próxima revisão.", by: ana,
                                  audit: audit(ana), db)
            }
        }
        try goal(people.carla, by: ana, GoalInput(kind: .independentTaps, title: "Toca sozinha, sem ajuda", target: 1,
                                                  startsOn: day(-20), endsOn: day(40), reviewOn: day(10)), aim: .above, cap: 100)
        try goal(people.carla, by: ana, GoalInput(kind: .sentences, title: "Monta frases de duas palavras", target: 1,
                                                  startsOn: day(-30), endsOn: day(-2), reviewOn: day(-2), minWords: 2), aim: .below)
        try goal(people.carla, by: nadia, GoalInput(kind: .adherence, title: "Segue o plano alimentar da semana", target: 80,
                                                    startsOn: day(-10), endsOn: day(-3), reviewOn: day(-2)), aim: nil)

        // Davi: speech therapy with Ana; his tutor Beatriz writes notes.
        try goal(people.davi, by: ana, GoalInput(kind: .gameHits, title: "Acierta los números", target: 8, startsOn: day(-2),
                                                 endsOn: day(45), reviewOn: day(30), gameArea: EduCATArea.numbers.rawValue,
                                                 gameMode: nil, aggregate: .best), aim: nil)
        // Two games of numbers (level 2, digits 0–9) this week, stored answer by answer as the game posts
        // them: 15 of 20 right, so "7 of 10 right" is on track.
        for (daysAgo, misses) in [(3, [2, 5, 8]), (1, [4, 9])] {
            let answers = (1...10).map { n in
                EduCATAnswer(sequence: n, asked: "\(n % 10)", tapped: misses.contains(n) ? "\((n + 1) % 10)" : "\(n % 10)",
                             milliseconds: 2_000 + 150 * n)
            }
            let batch = EduCATAnswer.Batch(gameKey: "demo-davi-numbers-\(daysAgo)", area: .numbers, mode: .challenge, level: 2,
                                           answers: answers)
            _ = try EduCATStore.store(batch, expected: { $0 }, patientId: people.davi, language: "es", promotion: .never,
                                      at: now.addingTimeInterval(-Double(daysAgo) * 86_400), db)
        }
        try goal(people.davi, by: ana, GoalInput(kind: .gameAccuracy, title: "Acierta 7 de cada 10 números", target: 70,
                                                 startsOn: day(-7), endsOn: day(40), reviewOn: day(21),
                                                 gameArea: EduCATArea.numbers.rawValue, gameMode: nil, gameLevel: 2), aim: nil)
        if let tapped = try mostTapped(people.davi) {
            let onTrack = try goal(people.davi, by: ana, GoalInput(kind: .symbolTaps, title: "Pide ayuda con el tablero", target: 1,
                                                                   startsOn: day(-21), endsOn: day(35), reviewOn: day(14),
                                                                   symbolId: tapped.symbol), aim: .below)
            if let onTrack {
                try Goals.addNote(goalId: onTrack.id!, body: "En casa lo usa sobre todo por la tarde.", by: beatriz, audit: audit(beatriz), db)
            }
            try goal(people.davi, by: ana, GoalInput(kind: .categoryTaps, title: "Nombra personas de la familia", target: 1,
                                                     startsOn: day(-35), endsOn: day(-2), reviewOn: day(-1), categoryId: tapped.category),
                     aim: .below)
        }
        try goal(people.davi, by: ana, GoalInput(kind: .sentences, title: "Frases de tres palabras", target: 1, startsOn: day(-20),
                                                 endsOn: day(30), reviewOn: day(5), minWords: 3), aim: .above)
        try goal(people.davi, by: ana, GoalInput(kind: .independentTaps, title: "Usa el tablero sin ayuda", target: 1,
                                                 startsOn: day(-30), endsOn: day(-2), reviewOn: day(-1)), aim: .above, cap: 100)
        if let closed = try goal(people.davi, by: ana, GoalInput(kind: .sentences, title: "Primeras frases de dos palabras", target: 1,
                                                                 startsOn: day(-60), endsOn: day(-31), minWords: 2), aim: nil) {
            try Goals.setClosed(.achieved, goalId: closed.id!, patientId: people.davi, audit: audit(ana), db)
        }

        // Elisa: nutrition with Nádia; her weights drift down.
        try goal(people.elisa, by: nadia, GoalInput(kind: .adherence, title: "Seguir o plano do mês que vem", target: 85,
                                                    startsOn: day(2), endsOn: day(32), reviewOn: day(32)), aim: nil)
        let adherence = try measured(GoalInput(kind: .adherence, title: "-", target: 1, startsOn: day(-10), endsOn: day(20)),
                                     patient: people.elisa) ?? 80
        try goal(people.elisa, by: nadia, GoalInput(kind: .adherence, title: "Seguir o plano alimentar", target: max(1, (adherence - 10).rounded(.down)),
                                                    startsOn: day(-10), endsOn: day(20), reviewOn: day(6)), aim: nil)
        try goal(people.elisa, by: nadia, GoalInput(kind: .adherence, title: "Todas as refeições como prescritas", target: 100,
                                                    startsOn: day(-10), endsOn: day(-3), reviewOn: day(-2)), aim: nil)
        var lose = GoalInput(kind: .bodyMeasure, title: "Chegar a 76 kg", target: 76, startsOn: day(-30), endsOn: day(30),
                             reviewOn: day(15), measure: .weight)
        lose.direction = .atMost
        try goal(people.elisa, by: nadia, lose, aim: nil)
        var first = GoalInput(kind: .bodyMeasure, title: "Ficar abaixo de 81 kg", target: 81, startsOn: day(-40), endsOn: day(20),
                              reviewOn: day(20), measure: .weight)
        first.direction = .atMost
        if let met = try goal(people.elisa, by: nadia, first, aim: nil) {
            try Goals.addNote(goalId: met.id!, body: "Alcançada antes do prazo; manter o plano.", by: nadia, audit: audit(nadia), db)
        }

        // Dani's clients: a body goal each, from their latest evaluation.
        if let daniId = people.dani, let fernanda = people.fernanda, let gustavo = people.gustavo {
            let dani = try actor(daniId)
            var fat = GoalInput(kind: .bodyMeasure, title: "Baixar a gordura corporal", target: 1, startsOn: day(-120), endsOn: day(60),
                                reviewOn: day(30), measure: .percentFat)
            fat.skinfoldProtocol = SkinfoldProtocol.jp7.rawValue
            fat.direction = .atMost
            fat.target = max(5, ((try measured(fat, patient: gustavo) ?? 20) - 1.5).rounded())
            try goal(gustavo, by: dani, fat, aim: nil)
            var weight = GoalInput(kind: .bodyMeasure, title: "Manter o peso abaixo de 62 kg", target: 62, startsOn: day(-90),
                                   endsOn: day(90), reviewOn: day(30), measure: .weight)
            weight.direction = .atMost
            try goal(fernanda, by: dani, weight, aim: nil)
        }
    }
}
