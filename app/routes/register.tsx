export default function Page() {
  return <div>register</div>
}
