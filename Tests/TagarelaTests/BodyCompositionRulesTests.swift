@testable import Tagarela
import Testing

// Golden values computed by hand, independently of the Swift code, with exact decimal arithmetic
// (python3 `decimal`, 40 digits) from the published coefficients in docs/formulas.md:
//   Db = a − b·S + c·S² − d·age;   %fat (Siri) = 495 / Db − 450.
// Densities are compared to 1e-9 and percentages to 1e-5 (the printed values are exact or rounded to 6 places).

private let densityTolerance = 1e-9
private let percentTolerance = 1e-5
private let kgTolerance = 1e-5

private func expectDensity(_ skinfoldProtocol: SkinfoldProtocol, _ sex: BiologicalSex, sum: Double, age: Double,
                           density: Double, percentFat: Double) {
    let computed = BodyCompositionRules.bodyDensity(skinfoldProtocol, sex: sex, sumOfSkinfolds: sum, age: age)
    #expect(abs(computed - density) < densityTolerance, "density \(computed) vs \(density)")
    let percent = BodyCompositionRules.siriPercentFat(density: computed)
    #expect(abs(percent - percentFat) < percentTolerance, "%fat \(percent) vs \(percentFat)")
}

@Suite struct BodyCompositionRulesTests {
    // MARK: - Jackson & Pollock 7 sites

    @Test func jacksonPollockSevenSiteMenMatchesThePublishedEquation() {
        // Db = 1.112 − 0.00043499·S + 0.00000055·S² − 0.00028826·age (Jackson & Pollock 1978)
        // Spec case M1: S = 10+15+12+20+11+14+18 = 100, age 30:
        //   0.00043499·100 = 0.043499; 0.00000055·10000 = 0.0055; 0.00028826·30 = 0.0086478
        //   Db = 1.112 − 0.043499 + 0.0055 − 0.0086478 = 1.0653532; %fat = 495/1.0653532 − 450 = 14.634639
        expectDensity(.jp7, .male, sum: 100, age: 30, density: 1.0653532, percentFat: 14.634639)
        // S = 50, age 22: 0.0217495; 0.00000055·2500 = 0.001375; 0.00028826·22 = 0.00634172
        //   Db = 1.112 − 0.0217495 + 0.001375 − 0.00634172 = 1.08528378; %fat = 6.101905
        expectDensity(.jp7, .male, sum: 50, age: 22, density: 1.08528378, percentFat: 6.101905)
        // S = 180, age 45: 0.0782982; 0.00000055·32400 = 0.01782; 0.00028826·45 = 0.0129717
        //   Db = 1.112 − 0.0782982 + 0.01782 − 0.0129717 = 1.0385501; %fat = 26.626019
        expectDensity(.jp7, .male, sum: 180, age: 45, density: 1.0385501, percentFat: 26.626019)
    }

    @Test func jacksonPollockWardSevenSiteWomenMatchesThePublishedEquation() {
        // Db = 1.097 − 0.00046971·S + 0.00000056·S² − 0.00012828·age (Jackson, Pollock & Ward 1980)
        // Spec case F1: S = 18+14+10+22+12+16+25 = 117, age 25:
        //   0.00046971·117 = 0.05495607; 0.00000056·13689 = 0.00766584; 0.00012828·25 = 0.003207
        //   Db = 1.097 − 0.05495607 + 0.00766584 − 0.003207 = 1.04650277; %fat = 23.004004
        expectDensity(.jp7, .female, sum: 117, age: 25, density: 1.04650277, percentFat: 23.004004)
        // S = 70, age 35: 0.0328797; 0.00000056·4900 = 0.002744; 0.00012828·35 = 0.0044898
        //   Db = 1.097 − 0.0328797 + 0.002744 − 0.0044898 = 1.0623745; %fat = 15.937388
        expectDensity(.jp7, .female, sum: 70, age: 35, density: 1.0623745, percentFat: 15.937388)
        // S = 160, age 50: 0.0751536; 0.00000056·25600 = 0.014336; 0.00012828·50 = 0.006414
        //   Db = 1.097 − 0.0751536 + 0.014336 − 0.006414 = 1.0297684; %fat = 30.690610
        expectDensity(.jp7, .female, sum: 160, age: 50, density: 1.0297684, percentFat: 30.690610)
    }

    // MARK: - Jackson & Pollock 3 sites (chest/abdominal/thigh men; triceps/suprailiac/thigh women)

    @Test func jacksonPollockThreeSiteMenMatchesThePublishedEquation() {
        // Db = 1.10938 − 0.0008267·S + 0.0000016·S² − 0.0002574·age (Jackson & Pollock 1978)
        // M1: chest 12 + abdominal 20 + thigh 18 = 50, age 30:
        //   0.0008267·50 = 0.041335; 0.0000016·2500 = 0.004; 0.0002574·30 = 0.007722
        //   Db = 1.10938 − 0.041335 + 0.004 − 0.007722 = 1.064323; %fat = 15.084378
        expectDensity(.jp3, .male, sum: 50, age: 30, density: 1.064323, percentFat: 15.084378)
        // S = 30, age 20: 0.024801; 0.0000016·900 = 0.00144; 0.0002574·20 = 0.005148
        //   Db = 1.10938 − 0.024801 + 0.00144 − 0.005148 = 1.080871; %fat = 7.963994
        expectDensity(.jp3, .male, sum: 30, age: 20, density: 1.080871, percentFat: 7.963994)
        // S = 90, age 55: 0.074403; 0.0000016·8100 = 0.01296; 0.0002574·55 = 0.014157
        //   Db = 1.10938 − 0.074403 + 0.01296 − 0.014157 = 1.03378; %fat = 28.825282
        expectDensity(.jp3, .male, sum: 90, age: 55, density: 1.03378, percentFat: 28.825282)
    }

    @Test func jacksonPollockWardThreeSiteWomenMatchesThePublishedEquation() {
        // Db = 1.0994921 − 0.0009929·S + 0.0000023·S² − 0.0001392·age (Jackson, Pollock & Ward 1980)
        // F1: triceps 18 + suprailiac 16 + thigh 25 = 59, age 25:
        //   0.0009929·59 = 0.0585811; 0.0000023·3481 = 0.0080063; 0.0001392·25 = 0.00348
        //   Db = 1.0994921 − 0.0585811 + 0.0080063 − 0.00348 = 1.0454373; %fat = 23.486071
        expectDensity(.jp3, .female, sum: 59, age: 25, density: 1.0454373, percentFat: 23.486071)
        // S = 40, age 30: 0.039716; 0.0000023·1600 = 0.00368; 0.0001392·30 = 0.004176
        //   Db = 1.0994921 − 0.039716 + 0.00368 − 0.004176 = 1.0592801; %fat = 17.298498
        expectDensity(.jp3, .female, sum: 40, age: 30, density: 1.0592801, percentFat: 17.298498)
        // S = 85, age 48: 0.0843965; 0.0000023·7225 = 0.0166175; 0.0001392·48 = 0.0066816
        //   Db = 1.0994921 − 0.0843965 + 0.0166175 − 0.0066816 = 1.0250315; %fat = 32.911989
        expectDensity(.jp3, .female, sum: 85, age: 48, density: 1.0250315, percentFat: 32.911989)
    }

    // MARK: - The seed's 3-site variant (triceps/subscapular/chest men; triceps/abdominal/suprailiac women)

    @Test func alternateThreeSiteMenMatchesThePublishedEquation() {
        // Db = 1.1125025 − 0.0013125·S + 0.0000055·S² − 0.000244·age (Pollock, Schmidt & Jackson 1980)
        // M1: triceps 10 + subscapular 15 + chest 12 = 37, age 30:
        //   0.0013125·37 = 0.0485625; 0.0000055·1369 = 0.0075295; 0.000244·30 = 0.00732
        //   Db = 1.1125025 − 0.0485625 + 0.0075295 − 0.00732 = 1.0641495; %fat = 15.160205
        expectDensity(.jp3Alternate, .male, sum: 37, age: 30, density: 1.0641495, percentFat: 15.160205)
        // S = 60, age 40: 0.07875; 0.0000055·3600 = 0.0198; 0.000244·40 = 0.00976
        //   Db = 1.1125025 − 0.07875 + 0.0198 − 0.00976 = 1.0437925; %fat = 24.232187
        expectDensity(.jp3Alternate, .male, sum: 60, age: 40, density: 1.0437925, percentFat: 24.232187)
        // S = 25, age 19: 0.0328125; 0.0000055·625 = 0.0034375; 0.000244·19 = 0.004636
        //   Db = 1.1125025 − 0.0328125 + 0.0034375 − 0.004636 = 1.0784915; %fat = 8.974410
        expectDensity(.jp3Alternate, .male, sum: 25, age: 19, density: 1.0784915, percentFat: 8.974410)
    }

    @Test func alternateThreeSiteWomenMatchesThePublishedEquation() {
        // Db = 1.089733 − 0.0009245·S + 0.0000025·S² − 0.0000979·age (Pollock, Schmidt & Jackson 1980)
        // F1: triceps 18 + abdominal 22 + suprailiac 16 = 56, age 25:
        //   0.0009245·56 = 0.051772; 0.0000025·3136 = 0.00784; 0.0000979·25 = 0.0024475
        //   Db = 1.089733 − 0.051772 + 0.00784 − 0.0024475 = 1.0433535; %fat = 24.431724
        expectDensity(.jp3Alternate, .female, sum: 56, age: 25, density: 1.0433535, percentFat: 24.431724)
        // S = 35, age 30: 0.0323575; 0.0000025·1225 = 0.0030625; 0.0000979·30 = 0.002937
        //   Db = 1.089733 − 0.0323575 + 0.0030625 − 0.002937 = 1.057501; %fat = 18.084664
        expectDensity(.jp3Alternate, .female, sum: 35, age: 30, density: 1.057501, percentFat: 18.084664)
        // S = 80, age 52: 0.07396; 0.0000025·6400 = 0.016; 0.0000979·52 = 0.0050908
        //   Db = 1.089733 − 0.07396 + 0.016 − 0.0050908 = 1.0266822; %fat = 32.135562
        expectDensity(.jp3Alternate, .female, sum: 80, age: 52, density: 1.0266822, percentFat: 32.135562)
    }

    // MARK: - The thesis's misprints are not used

    @Test func theThesisMisprintedQuadraticCoefficientsAreNotUsed() {
        // Man of spec §8 (M1), ∑3 = 37, age 30.
        // Published c = 0.0000055: Db = 1.0641495, %fat = 15.160205 (see above).
        // Misprint  c = 0.00000055: 0.00000055·1369 = 0.00075295;
        //   Db = 1.1125025 − 0.0485625 + 0.00075295 − 0.00732 = 1.05737295; %fat = 18.141350.
        let men = BodyCompositionRules.bodyDensity(.jp3Alternate, sex: .male, sumOfSkinfolds: 37, age: 30)
        let menPercent = BodyCompositionRules.siriPercentFat(density: men)
        #expect(abs(menPercent - 15.160205) < percentTolerance)
        #expect(abs(menPercent - 18.141350) > 2.9)
        #expect(DensityEquation.pollockJackson3AlternateMen.squareCoefficient == 0.0000055)

        // Woman of spec §8 (F1), ∑3 = 56, age 25.
        // Published c = 0.0000025: Db = 1.0433535, %fat = 24.431724.
        // Misprint  c = 0.00000025: 0.00000025·3136 = 0.000784;
        //   Db = 1.089733 − 0.051772 + 0.000784 − 0.0024475 = 1.0362975; %fat = 27.662061.
        let women = BodyCompositionRules.bodyDensity(.jp3Alternate, sex: .female, sumOfSkinfolds: 56, age: 25)
        let womenPercent = BodyCompositionRules.siriPercentFat(density: women)
        #expect(abs(womenPercent - 24.431724) < percentTolerance)
        #expect(abs(womenPercent - 27.662061) > 3.2)
        #expect(DensityEquation.pollockJackson3AlternateWomen.squareCoefficient == 0.0000025)
    }

    @Test func theSevenSiteMenAgeCoefficientIsTheFullPublishedValue() {
        // Published 0.00028826 vs the thesis's truncated 0.0002882; M1 (S = 100, age 30):
        //   published Db = 1.0653532; truncated 0.0002882·30 = 0.008646 → Db = 1.065355 (differs by 1.8e-6).
        let density = BodyCompositionRules.bodyDensity(.jp7, sex: .male, sumOfSkinfolds: 100, age: 30)
        #expect(abs(density - 1.0653532) < densityTolerance)
        #expect(abs(density - 1.065355) > 1e-6)
        #expect(DensityEquation.jacksonPollock7Men.ageCoefficient == 0.00028826)
    }

    @Test func theThesisBracketNestingDoesNotFlipTheSigns() {
        // Read literally, 1.112 − [0.00043499·S + 0.00000055·S² − [0.0002882·age]] gives for M1
        // 1.112 − 0.043499 − 0.0055 + 0.008646 = 1.071647 (%fat 11.905833); the standard form gives 1.0653532.
        let density = BodyCompositionRules.bodyDensity(.jp7, sex: .male, sumOfSkinfolds: 100, age: 30)
        #expect(abs(density - 1.071647) > 0.006)
        // Age lowers density (older → more fat at the same skinfolds) and the quadratic term raises it.
        let older = BodyCompositionRules.bodyDensity(.jp7, sex: .male, sumOfSkinfolds: 100, age: 40)
        #expect(older < density)
    }

    // MARK: - Sites

    @Test func eachProtocolAsksForItsSitesInFormOrder() {
        #expect(SkinfoldProtocol.jp7.sites(for: .male) == SkinfoldSite.allCases)
        #expect(SkinfoldProtocol.jp7.sites(for: .female) == SkinfoldSite.allCases)
        #expect(SkinfoldProtocol.jp3.sites(for: .male) == [.chest, .abdominal, .thigh])
        #expect(SkinfoldProtocol.jp3.sites(for: .female) == [.triceps, .suprailiac, .thigh])
        #expect(SkinfoldProtocol.jp3Alternate.sites(for: .male) == [.chest, .triceps, .subscapular])
        #expect(SkinfoldProtocol.jp3Alternate.sites(for: .female) == [.triceps, .abdominal, .suprailiac])
    }

    @Test func theSumIgnoresSitesTheProtocolDoesNotUse() {
        let m1 = Self.m1Skinfolds
        #expect(SkinfoldProtocol.jp7.sumOfSkinfolds(m1, sex: .male) == 100)
        #expect(SkinfoldProtocol.jp3.sumOfSkinfolds(m1, sex: .male) == 50)
        #expect(SkinfoldProtocol.jp3Alternate.sumOfSkinfolds(m1, sex: .male) == 37)
        #expect(SkinfoldProtocol.jp3.sumOfSkinfolds([.chest: 10, .abdominal: 20], sex: .male) == nil)
        #expect(SkinfoldProtocol.jp7.missingSites(for: .female, in: [.chest: 10, .triceps: 12, .thigh: 20])
            == [.midaxillary, .subscapular, .abdominal, .suprailiac])
    }

    // MARK: - Whole evaluation

    static let m1Skinfolds: [SkinfoldSite: Double] = [
        .triceps: 10, .subscapular: 15, .chest: 12, .abdominal: 20, .midaxillary: 11, .suprailiac: 14, .thigh: 18,
    ]
    static let f1Skinfolds: [SkinfoldSite: Double] = [
        .triceps: 18, .subscapular: 14, .chest: 10, .abdominal: 22, .midaxillary: 12, .suprailiac: 16, .thigh: 25,
    ]

    @Test func aManOfThirtyHasTheSpecsSevenSiteResult() throws {
        // M1, 80 kg, age 30, JP7: Db = 1.0653532, %fat = 14.634639
        //   fat = 80·0.14634639 = 11.707712; lean = 80 − 11.707712 = 68.292288; %lean = 85.365361
        //   ideal = 68.292288 / 0.85 = 80.343869; change = 80.343869 − 80 = +0.343869 (to gain)
        let result = try #require(BodyCompositionResult.compute(.jp7, sex: .male, age: 30, weightKg: 80,
                                                                skinfolds: Self.m1Skinfolds))
        #expect(result.sumOfSkinfolds == 100)
        #expect(abs(result.density - 1.0653532) < densityTolerance)
        #expect(abs(result.percentFat - 14.634639) < percentTolerance)
        #expect(abs(result.fatMassKg - 11.707712) < kgTolerance)
        #expect(abs(result.leanMassKg - 68.292288) < kgTolerance)
        #expect(abs(result.percentLean - 85.365361) < percentTolerance)
        #expect(abs(result.idealWeightKg - 80.343869) < kgTolerance)
        #expect(abs(result.weightChangeKg - 0.343869) < kgTolerance)
        #expect(result.fatClass == .optimal)
        #expect(result.ageIsValidated)
    }

    @Test func aManOfThirtyHasTheSpecsAlternateThreeSiteResult() throws {
        // M1, 80 kg, age 30, ∑3 = 37: Db = 1.0641495, %fat = 15.160205 (the spec's "gap 15–16": optimal here)
        //   fat = 12.128164; lean = 67.871836; ideal = 67.871836 / 0.85 = 79.849218; change = −0.150782 (to lose)
        let result = try #require(BodyCompositionResult.compute(.jp3Alternate, sex: .male, age: 30, weightKg: 80,
                                                                skinfolds: Self.m1Skinfolds))
        #expect(result.sumOfSkinfolds == 37)
        #expect(abs(result.percentFat - 15.160205) < percentTolerance)
        #expect(abs(result.fatMassKg - 12.128164) < kgTolerance)
        #expect(abs(result.leanMassKg - 67.871836) < kgTolerance)
        #expect(abs(result.idealWeightKg - 79.849218) < kgTolerance)
        #expect(abs(result.weightChangeKg - -0.150782) < kgTolerance)
        #expect(result.fatClass == .optimal)
    }

    @Test func aWomanOfTwentyFiveHasTheSpecsSevenSiteResult() throws {
        // F1, 60 kg, age 25, JP7: Db = 1.04650277, %fat = 23.004004 (the spec's "gap 23–24": optimal here)
        //   fat = 60·0.23004004 = 13.802402; lean = 46.197598; %lean = 76.995996
        //   ideal = 46.197598 / 0.75 = 61.596797; change = +1.596797 (to gain)
        let result = try #require(BodyCompositionResult.compute(.jp7, sex: .female, age: 25, weightKg: 60,
                                                                skinfolds: Self.f1Skinfolds))
        #expect(result.sumOfSkinfolds == 117)
        #expect(abs(result.density - 1.04650277) < densityTolerance)
        #expect(abs(result.percentFat - 23.004004) < percentTolerance)
        #expect(abs(result.fatMassKg - 13.802402) < kgTolerance)
        #expect(abs(result.leanMassKg - 46.197598) < kgTolerance)
        #expect(abs(result.percentLean - 76.995996) < percentTolerance)
        #expect(abs(result.idealWeightKg - 61.596797) < kgTolerance)
        #expect(abs(result.weightChangeKg - 1.596797) < kgTolerance)
        #expect(result.fatClass == .optimal)
    }

    @Test func aWomanOfTwentyFiveHasTheThreeSiteResults() throws {
        // F1, 60 kg, age 25, JP3 (triceps + suprailiac + thigh = 59): %fat = 23.486071 → optimal;
        //   ideal = 45.908357 / 0.75 = 61.211143
        let jp3 = try #require(BodyCompositionResult.compute(.jp3, sex: .female, age: 25, weightKg: 60,
                                                             skinfolds: Self.f1Skinfolds))
        #expect(jp3.sumOfSkinfolds == 59)
        #expect(abs(jp3.percentFat - 23.486071) < percentTolerance)
        #expect(abs(jp3.idealWeightKg - 61.211143) < kgTolerance)
        #expect(jp3.fatClass == .optimal)
        // JP3 alternate (triceps + abdominal + suprailiac = 56): %fat = 24.431724 → overweight;
        //   fat = 14.659035; lean = 45.340965; ideal = 60.454621; change = +0.454621
        let alternate = try #require(BodyCompositionResult.compute(.jp3Alternate, sex: .female, age: 25, weightKg: 60,
                                                                   skinfolds: Self.f1Skinfolds))
        #expect(alternate.sumOfSkinfolds == 56)
        #expect(abs(alternate.percentFat - 24.431724) < percentTolerance)
        #expect(abs(alternate.leanMassKg - 45.340965) < kgTolerance)
        #expect(abs(alternate.weightChangeKg - 0.454621) < kgTolerance)
        #expect(alternate.fatClass == .overweight)
    }

    @Test func computeReturnsNilWhenASiteIsMissing() {
        var skinfolds = Self.m1Skinfolds
        skinfolds[.thigh] = nil
        #expect(BodyCompositionResult.compute(.jp7, sex: .male, age: 30, weightKg: 80, skinfolds: skinfolds) == nil)
        #expect(BodyCompositionResult.compute(.jp3, sex: .male, age: 30, weightKg: 80, skinfolds: skinfolds) == nil)
        #expect(BodyCompositionResult.compute(.jp3, sex: .female, age: 30, weightKg: 80, skinfolds: skinfolds) == nil)
        // The alternate protocol does not use the thigh.
        #expect(BodyCompositionResult.compute(.jp3Alternate, sex: .male, age: 30, weightKg: 80, skinfolds: skinfolds) != nil)
        #expect(BodyCompositionResult.compute(.jp3Alternate, sex: .female, age: 30, weightKg: 80, skinfolds: [:]) == nil)
    }

    @Test func anAgeOutsideEighteenToSixtyIsFlaggedButStillComputed() throws {
        #expect(!BodyCompositionRules.isAgeValidated(17.9))
        #expect(BodyCompositionRules.isAgeValidated(18))
        #expect(BodyCompositionRules.isAgeValidated(60))
        #expect(!BodyCompositionRules.isAgeValidated(61))
        let result = try #require(BodyCompositionResult.compute(.jp7, sex: .male, age: 65, weightKg: 80,
                                                                skinfolds: Self.m1Skinfolds))
        #expect(!result.ageIsValidated)
    }

    // MARK: - Siri, median, BMI, ideal weight

    @Test func siriConvertsDensityToPercentFat() {
        // 495/1.05 − 450 = 471.428571… − 450 = 21.428571; 495/1.10 − 450 = 0; 495/1.04 − 450 = 25.961538;
        // 495/1.07 − 450 = 12.616822
        #expect(abs(BodyCompositionRules.siriPercentFat(density: 1.05) - 21.428571) < percentTolerance)
        #expect(abs(BodyCompositionRules.siriPercentFat(density: 1.10)) < percentTolerance)
        #expect(abs(BodyCompositionRules.siriPercentFat(density: 1.04) - 25.961538) < percentTolerance)
        #expect(abs(BodyCompositionRules.siriPercentFat(density: 1.07) - 12.616822) < percentTolerance)
    }

    @Test func theMedianOfOneTwoOrThreeReadings() {
        #expect(BodyCompositionRules.median([]) == nil)
        #expect(BodyCompositionRules.median([12.5]) == 12.5)
        #expect(BodyCompositionRules.median([12, 13]) == 12.5)
        #expect(BodyCompositionRules.median([14, 12, 13]) == 13)
        #expect(BodyCompositionRules.median([12, 12, 20]) == 12)
    }

    @Test func bmiIsWeightOverHeightSquared() {
        // 80 / 1.8² = 80 / 3.24 = 24.691358; 60 / 1.65² = 60 / 2.7225 = 22.038567
        #expect(abs(BodyCompositionRules.bmi(weightKg: 80, heightM: 1.8) - 24.691358) < percentTolerance)
        #expect(abs(BodyCompositionRules.bmi(weightKg: 60, heightM: 1.65) - 22.038567) < percentTolerance)
        // 81 / 1.8² is 25 in exact arithmetic (24.999999999999996 in binary): overweight, not normal.
        #expect(BMIClass.classify(bmi: BodyCompositionRules.bmi(weightKg: 81, heightM: 1.8)) == .overweight)
    }

    @Test func everyWHOBMIBoundary() {
        #expect(BMIClass.classify(bmi: 18.49) == .underweight)
        #expect(BMIClass.classify(bmi: 18.5) == .normal)
        #expect(BMIClass.classify(bmi: 24.999) == .normal)
        #expect(BMIClass.classify(bmi: 25) == .overweight)
        #expect(BMIClass.classify(bmi: 29.99) == .overweight)
        #expect(BMIClass.classify(bmi: 30) == .obese1)
        #expect(BMIClass.classify(bmi: 34.99) == .obese1)
        #expect(BMIClass.classify(bmi: 35) == .obese2)
        #expect(BMIClass.classify(bmi: 39.99) == .obese2)
        #expect(BMIClass.classify(bmi: 40) == .obese3)
    }

    @Test func idealWeightAndWeightChangeForBothSexes() throws {
        // Spec: lean 68 kg (man) → 68 / 0.85 = 80; lean 45 kg (woman) → 45 / 0.75 = 60.
        #expect(abs(BodyCompositionRules.idealWeight(leanMassKg: 68, sex: .male) - 80) < kgTolerance)
        #expect(abs(BodyCompositionRules.idealWeight(leanMassKg: 45, sex: .female) - 60) < kgTolerance)
        // A man of 100 kg with Db = 1.0385501 (JP7, S = 180, age 45): %fat = 26.626019; lean = 73.373981;
        //   ideal = 73.373981 / 0.85 = 86.322330; change = −13.677670 (to lose).
        let heavy: [SkinfoldSite: Double] = [.chest: 20, .midaxillary: 25, .triceps: 20, .subscapular: 30,
                                             .abdominal: 35, .suprailiac: 25, .thigh: 25]
        let man = try #require(BodyCompositionResult.compute(.jp7, sex: .male, age: 45, weightKg: 100, skinfolds: heavy))
        #expect(man.sumOfSkinfolds == 180)
        #expect(abs(man.idealWeightKg - 86.322330) < kgTolerance)
        #expect(abs(man.weightChangeKg - -13.677670) < kgTolerance)
        #expect(man.fatClass == .obese)
        // A woman of 50 kg, JP3 alternate ∑ = 35 at 30 (Db = 1.057501, %fat = 18.084664):
        //   lean = 50·(1 − 0.18084664) = 40.957668; ideal = 40.957668 / 0.75 = 54.610224; change = +4.610224 (to gain).
        let lean: [SkinfoldSite: Double] = [.triceps: 12, .abdominal: 13, .suprailiac: 10]
        let woman = try #require(BodyCompositionResult.compute(.jp3Alternate, sex: .female, age: 30, weightKg: 50,
                                                               skinfolds: lean))
        #expect(abs(woman.idealWeightKg - 54.610224) < kgTolerance)
        #expect(abs(woman.weightChangeKg - 4.610224) < kgTolerance)
        #expect(woman.fatClass == .optimal)
    }

    // MARK: - Lohman

    @Test(arguments: [(7.99, FatClass.lean), (8, .optimal), (15, .optimal), (15.16, .optimal), (15.99, .optimal),
                      (16, .overweight), (20.5, .overweight), (20.99, .overweight), (21, .fat), (24, .fat),
                      (24.01, .obese)])
    func everyLohmanBoundaryForMen(_ percentFat: Double, _ expected: FatClass) {
        #expect(FatClass.classify(percentFat: percentFat, sex: .male) == expected)
    }

    @Test(arguments: [(12.99, FatClass.lean), (13, .optimal), (23, .optimal), (23.99, .optimal), (24, .overweight),
                      (27.5, .overweight), (27.99, .overweight), (28, .fat), (33, .fat), (33.01, .obese)])
    func everyLohmanBoundaryForWomen(_ percentFat: Double, _ expected: FatClass) {
        #expect(FatClass.classify(percentFat: percentFat, sex: .female) == expected)
    }

    // MARK: - Bray & Gray waist-hip ratio

    @Test(arguments: [(0.82, WaistHipRisk.low), (0.8299, .low), (0.83, .moderate), (0.88, .moderate),
                      (0.885, .moderate), (0.8899, .moderate), (0.89, .high), (0.94, .high), (0.9401, .veryHigh),
                      (0.95, .veryHigh)])
    func waistHipRiskForAManOfTwentyFive(_ ratio: Double, _ expected: WaistHipRisk) {
        let result = WaistHipRisk.classify(ratio: ratio, sex: .male, age: 25)
        #expect(result.risk == expected)
        #expect(!result.isExtrapolated)
    }

    @Test(arguments: [(0.83, WaistHipRisk.low), (0.84, .moderate), (0.91, .moderate), (0.915, .moderate),
                      (0.92, .high), (0.96, .high), (0.97, .veryHigh)])
    func waistHipRiskForAManOfThirtyFive(_ ratio: Double, _ expected: WaistHipRisk) {
        #expect(WaistHipRisk.classify(ratio: ratio, sex: .male, age: 35).risk == expected)
    }

    @Test func waistHipRiskForOlderMen() {
        #expect(WaistHipRisk.classify(ratio: 0.87, sex: .male, age: 45).risk == .low)
        #expect(WaistHipRisk.classify(ratio: 0.955, sex: .male, age: 45).risk == .moderate)
        #expect(WaistHipRisk.classify(ratio: 1.00, sex: .male, age: 45).risk == .high)
        #expect(WaistHipRisk.classify(ratio: 1.01, sex: .male, age: 45).risk == .veryHigh)
        #expect(WaistHipRisk.classify(ratio: 0.90, sex: .male, age: 55).risk == .moderate)
        #expect(WaistHipRisk.classify(ratio: 1.02, sex: .male, age: 55).risk == .high)
        #expect(WaistHipRisk.classify(ratio: 0.985, sex: .male, age: 65).risk == .moderate)
        #expect(WaistHipRisk.classify(ratio: 1.03, sex: .male, age: 65).risk == .high)
        #expect(WaistHipRisk.classify(ratio: 1.04, sex: .male, age: 65).risk == .veryHigh)
    }

    @Test(arguments: [(0.70, WaistHipRisk.low), (0.71, .moderate), (0.77, .moderate), (0.775, .moderate),
                      (0.78, .high), (0.82, .high), (0.83, .veryHigh)])
    func waistHipRiskForAWomanOfTwentyFive(_ ratio: Double, _ expected: WaistHipRisk) {
        #expect(WaistHipRisk.classify(ratio: ratio, sex: .female, age: 25).risk == expected)
    }

    @Test(arguments: [(0.75, WaistHipRisk.low), (0.76, .moderate), (0.835, .moderate), (0.84, .high), (0.90, .high),
                      (0.91, .veryHigh)])
    func waistHipRiskForAWomanOfSixtyFive(_ ratio: Double, _ expected: WaistHipRisk) {
        #expect(WaistHipRisk.classify(ratio: ratio, sex: .female, age: 65).risk == expected)
    }

    @Test func waistHipRiskBandEdgesAndExtrapolation() {
        // 29 uses 20–29 (0.84 is moderate there), 30 uses 30–39 (0.84 is its first moderate value, 0.83 low).
        #expect(WaistHipRisk.classify(ratio: 0.90, sex: .male, age: 29).risk == .high)
        #expect(WaistHipRisk.classify(ratio: 0.90, sex: .male, age: 30).risk == .moderate)
        #expect(WaistHipRisk.classify(ratio: 0.83, sex: .male, age: 30).risk == .low)
        // Under 20: the 20–29 band, flagged.
        let young = WaistHipRisk.classify(ratio: 0.95, sex: .male, age: 18)
        #expect(young.risk == .veryHigh)
        #expect(young.isExtrapolated)
        #expect(WaistHipRisk.classify(ratio: 0.70, sex: .female, age: 19).isExtrapolated)
        #expect(!WaistHipRisk.classify(ratio: 0.70, sex: .female, age: 20).isExtrapolated)
        // Over 69: the 60–69 band, flagged.
        #expect(!WaistHipRisk.classify(ratio: 1.0, sex: .male, age: 69).isExtrapolated)
        let old = WaistHipRisk.classify(ratio: 1.03, sex: .male, age: 75)
        #expect(old.risk == .high)
        #expect(old.isExtrapolated)
        let oldWoman = WaistHipRisk.classify(ratio: 0.905, sex: .female, age: 70)
        #expect(oldWoman.risk == .veryHigh)
        #expect(oldWoman.isExtrapolated)
    }

    @Test func theWaistHipRatioOfTapeMeasurements() {
        // 94 / 100 = 0.94 → high; 95 / 100 = 0.95 → very high; 88.5 / 100 = 0.885 → moderate (man of 25).
        #expect(WaistHipRisk.classify(ratio: WaistHipRisk.ratio(waist: 94, hip: 100), sex: .male, age: 25).risk == .high)
        #expect(WaistHipRisk.classify(ratio: WaistHipRisk.ratio(waist: 95, hip: 100), sex: .male, age: 25).risk == .veryHigh)
        #expect(WaistHipRisk.classify(ratio: WaistHipRisk.ratio(waist: 88.5, hip: 100), sex: .male, age: 25).risk == .moderate)
        // 74.7 / 90 = 0.83 exactly in decimal arithmetic: moderate, whatever the binary rounding.
        #expect(WaistHipRisk.classify(ratio: WaistHipRisk.ratio(waist: 74.7, hip: 90), sex: .male, age: 25).risk == .moderate)
    }

    // MARK: - WHO waist

    @Test(arguments: [(93.9, BiologicalSex.male, WaistRisk.low), (94, .male, .increased), (101.9, .male, .increased),
                      (102, .male, .high), (79.9, .female, .low), (80, .female, .increased), (87.9, .female, .increased),
                      (88, .female, .high)])
    func everyWHOWaistBoundary(_ waist: Double, _ sex: BiologicalSex, _ expected: WaistRisk) {
        #expect(WaistRisk.classify(waistCm: waist, sex: sex) == expected)
    }

    // MARK: - Real change between evaluations

    @Test func aChangeSmallerThanTheTypicalErrorIsNoRealChange() {
        #expect(MeasurementChange.weight(from: 80, to: 80.4) == .noRealChange(0.4))
        #expect(MeasurementChange.weight(from: 80, to: 80.5) == .changed(0.5))
        #expect(MeasurementChange.weight(from: 70.1, to: 70.6) == .changed(0.5))
        #expect(MeasurementChange.weight(from: 80, to: 79) == .changed(-1))
        #expect(MeasurementChange.percentFat(from: 20, to: 19.1) == .noRealChange(-0.9))
        #expect(MeasurementChange.percentFat(from: 20, to: 19) == .changed(-1))
        // Sum of skinfolds: 5 % of the earlier sum; 5 % of 100 = 5 mm.
        #expect(MeasurementChange.sumOfSkinfolds(from: 100, to: 96) == .noRealChange(-4))
        #expect(MeasurementChange.sumOfSkinfolds(from: 100, to: 95) == .changed(-5))
        #expect(MeasurementChange.sumOfSkinfolds(from: 40, to: 42.5) == .changed(2.5))
        #expect(MeasurementChange.sumOfSkinfolds(from: 40, to: 41.9) == .noRealChange(1.9))
        #expect(MeasurementChange.perimeter(from: 90, to: 90.9) == .noRealChange(0.9))
        #expect(MeasurementChange.perimeter(from: 90, to: 91) == .changed(1))
        #expect(MeasurementChange.mass(from: 12, to: 12.6) == .noRealChange(0.6))
        #expect(MeasurementChange.mass(from: 12, to: 11.3) == .changed(-0.7))
        #expect(MeasurementChange.mass(from: 12, to: 12) == .noRealChange(0))
        #expect(MeasurementChange.sumOfSkinfolds(from: 0, to: 0) == .noRealChange(0))
        #expect(MeasurementChange.weight(from: 80, to: 81).isRealChange)
        #expect(MeasurementChange.weight(from: 80, to: 81).delta == 1)
    }
}
