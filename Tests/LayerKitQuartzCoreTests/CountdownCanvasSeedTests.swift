import LayerKitQuartzCore
import Testing

/// Seed 004 (a countdown clock drawn in a SwiftUI Canvas through CGContext): the Canvas body
/// and the three drawing functions are the seed's as published. Around them: the view that
/// holds `countDown` and `dayColor` (defined elsewhere in the seed's app), and the text helper
/// `draw(_:in:at:)` the seed calls but does not show.
struct CountdownAnalogView {
    let countDown: Double
    let dayColor = UIColor.white.cgColor

    var canvas: Canvas {
        Canvas { gContext, size in
        // 1
        let clockSize = min(size.width, size.height) * 0.9
        // 2
        let centerOffsetX = min(size.width, size.height) * 0.05 +  (size.width -  min(size.width, size.height))/2
        let centerOffsetY = min(size.width, size.height) * 0.05 +  (size.height -  min(size.width, size.height))/2
        // 3
        let clockCenterX = size.width / 2.0
        let clockCenterY = size.height / 2.0
        // 4
        let frameRect = CGRect(
          x: centerOffsetX,
          y: centerOffsetY,
          width: clockSize,
          height: clockSize)
        let outframeRect = CGRect(
          x: centerOffsetX-10,
          y: centerOffsetY-10 ,
          width: clockSize+20,
          height: clockSize+20)
        gContext.withCGContext { cgContext in

          // 2
          cgContext.setStrokeColor(UIColor.black.cgColor)
          // 3
          cgContext.setFillColor(UIColor.brown.cgColor)
          cgContext.setLineWidth(5.0)
          // 4
          cgContext.addEllipse(in: outframeRect)
          // 5
          cgContext.drawPath(using: .fillStroke)

          cgContext.setFillColor(dayColor)
          cgContext.setLineWidth(2.0)

          cgContext.addEllipse(in: frameRect)
          // 5
          cgContext.drawPath(using: .fillStroke)
          cgContext.setFillColor(UIColor.black.cgColor)
          // 2
          cgContext.translateBy(x: clockCenterX, y: clockCenterY)

          // 3
          let angle = 12 / 12.0 * 2 * Double.pi
          let hourRadius = clockSize * 0.65 / 2.0

          let minuteRadius = clockSize * 0.75 / 2.0
          let minuteAngle = countDown / 60.0 * 2 * Double.pi


          addCountDownArc(context: cgContext, angle: minuteAngle, width: 0, length: clockSize/2*0.85)

          drawTickMarks(
            gcontext: gContext,
            context: cgContext,
            size: clockSize,
            offset: CGPoint(x: 0, y: 0))

          // 4
          drawClockHand(
            context: cgContext,
            angle: angle,
            width: 7.5,
            length: hourRadius)

          drawClockHand(
            context: cgContext,
            angle: minuteAngle,
            width: 5.0,
            length: minuteRadius)
        }
        }
    }

func addCountDownArc( context: CGContext,
                        angle: Double,
                        width: Double,
                        length: Double){
    context.saveGState()
    context.setFillColor(UIColor.red.cgColor)
    context.setAlpha(0.7)
    context.move(to:  CGPoint(x: 0, y: 0))
    context.rotate(by: -Double.pi/2)
    context.addArc(center: CGPoint(x: 0, y: 0), radius: length, startAngle: 0, endAngle: angle, clockwise: false)
    context.fillPath()
    context.restoreGState()

  }

func drawTickMarks(gcontext: GraphicsContext,context: CGContext, size: Double, offset : CGPoint) {
    // 1
    let clockCenterX = offset.x
    let clockCenterY = offset.y
    let clockRadius = size / 2.0
    context.saveGState()
    context.setStrokeColor(UIColor.gray.cgColor)
    context.setLineWidth(1.5)
    for minitMark in 0..<60 {
      // 3
      let angle = Double(minitMark) / 60.0 * 2.0 * Double.pi
      // 4
      let startX = cos(angle) * clockRadius + clockCenterX
      let startY = sin(angle) * clockRadius + clockCenterY
      // 5
      let endX = cos(angle) * clockRadius * 0.95 + clockCenterX
      let endY = sin(angle) * clockRadius * 0.95 + clockCenterY
      // 6
      context.move(to: CGPoint(x: startX, y: startY))
      // 7
      context.addLine(to: CGPoint(x: endX, y: endY))

      // 8
      context.strokePath()
    }
    context.restoreGState()
    // 2
    for hourMark in 0..<12 {
      // 3
      let angle = Double(hourMark) / 12.0 * 2.0 * Double.pi
      // 4
      let startX = cos(angle) * clockRadius + clockCenterX
      let startY = sin(angle) * clockRadius + clockCenterY
      // 5
      let endX = cos(angle) * clockRadius * 0.9 + clockCenterX
      let endY = sin(angle) * clockRadius * 0.9 + clockCenterY
      // 6
      context.move(to: CGPoint(x: startX, y: startY))
      // 7
      context.addLine(to: CGPoint(x: endX, y: endY))

      // 8
      context.strokePath()
      let tX = cos(angle) * clockRadius * 0.8
      let tY = sin(angle) * clockRadius * 0.8
      var hour = (hourMark+3)%12
      hour = (hour == 0 ? 12 : hour) * 5
      /*gcontext.draw(Text("\(hour)").font(.title.bold()).foregroundColor(.secondary), at: CGPoint(x: tX,y: tY))*/
      draw("\(hour)",in: context, at: CGPoint(x: tX,y: tY))
    }
  }

 func drawClockHand(
    context: CGContext,
    angle: Double,
    width: Double,
    length: Double
  ) {
    // 1
    context.saveGState()
    // 2
    context.rotate(by: angle)
    // 3
    context.move(to: CGPoint(x: 0, y: 0))
    context.addLine(to: CGPoint(x: -width, y: -length * 0.67))
    context.addLine(to: CGPoint(x: 0, y: -length))
    context.addLine(to: CGPoint(x: width, y: -length * 0.67))
    context.closePath()
    // 4
    context.fillPath()
    // 5
    context.restoreGState()
  }

    /// The seed's text helper (not shown in the seed): the numeral centred on `point`.
    func draw(_ text: String, in context: CGContext, at point: CGPoint) {
        let label = CATextLayer()
        label.string = text
        label.fontSize = 14
        let size = label.preferredSize()
        context.draw(text, at: CGPoint(x: point.x - size.width / 2, y: point.y + size.height / 4), size: 14, color: .darkGray)
    }
}

@Suite struct CountdownCanvasSeedTests {
    /// Fifteen minutes left on a 300x300 canvas: face centre (150, 150), radius 135.
    private func render(countDown: Double) throws -> Bitmap {
        let canvas = CountdownAnalogView(countDown: countDown).canvas
        canvas.frame = CGRect(x: 0, y: 0, width: 300, height: 300)
        return try frame(of: canvas, at: 0)
    }

    /// The point at `distance` from the centre in the direction `angle` clockwise from 12.
    private func point(_ angle: Double, _ distance: Double) -> (x: Int, y: Int) {
        (Int(150 + sin(angle) * distance), Int(150 - cos(angle) * distance))
    }

    @Test func fifteenMinutesLeftIsAQuarterSectorInTranslucentRed() throws {
        let shown = try render(countDown: 15)
        // The sector: red at 0.7 over the white face, (1, 0.3, 0.3), from 12 to 3 o'clock.
        let sectorRed = UIColor(red: 1, green: 0.3, blue: 0.3)
        for (angle, distance) in [(Double.pi / 8, 60.0), (Double.pi / 4, 90), (3 * Double.pi / 8, 40)] {
            let p = point(angle, distance)
            #expect(shown.pixel(x: p.x, y: p.y).isClose(to: sectorRed, 0.03), "angle \(angle)")
        }
        // The other three quarters show the face.
        for angle in [3 * Double.pi / 4, 5 * Double.pi / 4, 7 * Double.pi / 4] {
            let p = point(angle, 60)
            #expect(shown.pixel(x: p.x, y: p.y).isClose(to: .white), "angle \(angle)")
        }
    }

    @Test func theRingIsBrownAndTheHandsAreBlack() throws {
        let shown = try render(countDown: 15)
        // Between the inner circle's stroke (r 134…136) and the outer one's (142.5…147.5): brown.
        #expect(shown.pixel(x: 150, y: 150 - 139).isClose(to: .brown))
        #expect(shown.pixel(x: 150 + 139, y: 150).isClose(to: .brown))
        // The hour hand points to 12 (angle 2π): black 60 above the centre, inside its kite.
        #expect(shown.pixel(x: 150, y: 90).isClose(to: .black))
        // The minute hand at 15 of 60 minutes points to 3: black 60 right of the centre.
        #expect(shown.pixel(x: 210, y: 150).isClose(to: .black))
        // The hands draw after the sector: the hour hand's right half, over the sector, is black.
        #expect(shown.pixel(x: 153, y: 100).isClose(to: .black))
    }

    @Test func theSectorFollowsTheTimeLeft() throws {
        // 45 minutes left: three quarters, from 12 round to 9; the quarter from 9 to 12 is face.
        let shown = try render(countDown: 45)
        let sectorRed = UIColor(red: 1, green: 0.3, blue: 0.3)
        let lower = point(3 * Double.pi / 4, 60), upperLeft = point(7 * Double.pi / 4, 60)
        #expect(shown.pixel(x: lower.x, y: lower.y).isClose(to: sectorRed, 0.03))
        #expect(shown.pixel(x: upperLeft.x, y: upperLeft.y).isClose(to: .white))
    }
}
